package org.rocshmem.bench.ops;

import static org.rocshmem.global.hip.hipModuleLaunchKernel;
import static org.rocshmem.global.hip.hipStreamSynchronize;

import java.util.concurrent.TimeUnit;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rocshmem.api.hip.Dim3;
import org.rocshmem.api.hip.HipModule;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.hip.Kernel;
import org.rocshmem.api.hip.KernelArguments;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.bench.Loop;
import org.rocshmem.bench.Metered;
import org.rocshmem.bench.NativeLoops;
import org.rocshmem.bench.Pe;
import org.rocshmem.bench.Variant;
import org.rocshmem.hip.ihipModuleSymbol_t;
import org.rocshmem.hip.ihipStream_t;

/**
 * Kernel launch: K launches of {@code touch(long* out, int value)} (src/main/hip/kernels/touch.hip, one
 * work-item) on one stream, then one hipStreamSynchronize. C and the raw binding pass kernelParams built once. The
 * typed API in two forms: {@code kernel_launch} the varargs {@code launch(..., out, 1)}, which packs its arguments
 * into the kernel's reused argument block on every launch (its B/op is the varargs array); {@code
 * kernel_launch_args} a {@link KernelArguments} set once, whose launches allocate nothing. Every PE launches on its
 * own; nothing is collective.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 100, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 3, time = 100, timeUnit = TimeUnit.MILLISECONDS)
public class KernelBenchmarks {
    static final int K = 100;

    @State(Scope.Benchmark)
    public static class Launched extends Metered {
        @Param({"c", "raw", "typed"})
        public String variant;

        /** True in the state of kernel_launch_args: the typed variant launches with a KernelArguments. */
        boolean withArgumentList() {
            return false;
        }

        Loop launch;
        private long launches;
        private SymmetricBuffer buffer;
        private HipStream stream;
        private HipModule module;
        private PointerPointer<Pointer> params;

        @Setup(Level.Trial)
        public void setUp() {
            Rocshmem shmem = Pe.session();
            buffer = shmem.calloc(1, Long.BYTES); // collective
            stream = HipStream.create();
            module = HipModule.loadResource("kernels/touch");
            Kernel touch = module.kernel("touch");
            ihipModuleSymbol_t function = functionOf(module);
            switch (Variant.of(variant)) {
                case C -> {
                    long f = function.address();
                    long s = stream.address();
                    long out = buffer.address();
                    launch = k -> check(NativeLoops.module_launch(f, s, out, 1, k));
                }
                case RAW -> {
                    ihipStream_t s = stream.handle();
                    LongPointer out = new LongPointer(1).put(buffer.address());
                    IntPointer value = new IntPointer(1).put(1);
                    params = new PointerPointer<>(out, value);
                    PointerPointer<Pointer> p = params;
                    launch = k -> {
                        for (int i = 0; i < k; i++) {
                            check(hipModuleLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, s, p, (PointerPointer<?>) null));
                        }
                        return check(hipStreamSynchronize(s));
                    };
                }
                case TYPED -> {
                    SymmetricLongs out = buffer.asLongs();
                    HipStream onStream = stream;
                    Dim3 one = Dim3.of(1);
                    if (withArgumentList()) {
                        KernelArguments args = touch.arguments().set(0, out).set(1, 1);
                        launch = k -> {
                            for (int i = 0; i < k; i++) {
                                touch.launch(one, one, 0, onStream, args);
                            }
                            onStream.synchronize();
                            return 0;
                        };
                        break;
                    }
                    launch = k -> {
                        for (int i = 0; i < k; i++) {
                            touch.launch(one, one, 0, onStream, out, 1);
                        }
                        onStream.synchronize();
                        return 0;
                    };
                }
            }
            shmem.barrierAll();
        }

        /** The raw variant launches the same hipFunction_t the typed Kernel holds. */
        private static ihipModuleSymbol_t functionOf(HipModule module) {
            ihipModuleSymbol_t function = new ihipModuleSymbol_t();
            try (org.bytedeco.javacpp.BytePointer name = new org.bytedeco.javacpp.BytePointer("touch")) {
                check(org.rocshmem.global.hip.hipModuleGetFunction(function, module.handle(), name));
            }
            return function;
        }

        private static long check(int status) {
            if (status != 0) {
                throw new IllegalStateException("kernel launch returned " + status);
            }
            return 0;
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            Rocshmem shmem = Pe.session();
            stream.synchronize();
            long touched = buffer.asLongs().toArray()[0];
            stream.close();
            module.close();
            shmem.barrierAll();
            try {
                RmaBenchmarks.expect("kernel launch (each adds 1)", touched, operations);
            } finally {
                buffer.close(); // collective
            }
        }
    }

    /** The same launches; the typed variant with an argument list set once (KernelArguments). */
    @State(Scope.Benchmark)
    public static class LaunchedWithArguments extends Launched {
        @Override
        boolean withArgumentList() {
            return true;
        }
    }

    @Benchmark
    @OperationsPerInvocation(K)
    public long kernel_launch(Launched s) {
        s.operations += K;
        return s.launch.run(K);
    }

    @Benchmark
    @OperationsPerInvocation(K)
    public long kernel_launch_args(LaunchedWithArguments s) {
        s.operations += K;
        return s.launch.run(K);
    }
}
