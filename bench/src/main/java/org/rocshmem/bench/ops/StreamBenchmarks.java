package org.rocshmem.bench.ops;

import static org.rocshmem.global.hip.hipStreamSynchronize;
import static org.rocshmem.global.rocshmem.rocshmem_putmem_on_stream;

import java.util.concurrent.TimeUnit;
import org.bytedeco.javacpp.Pointer;
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
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricBytes;
import org.rocshmem.bench.Loop;
import org.rocshmem.bench.Metered;
import org.rocshmem.bench.NativeLoops;
import org.rocshmem.bench.Pe;
import org.rocshmem.bench.Variant;
import org.rocshmem.hip.ihipStream_t;

/**
 * Stream-ordered put: K rocshmem_putmem_on_stream calls of 8 B to the peer, then one hipStreamSynchronize; the
 * time per call covers the enqueue and, amortized, the stream's execution of the put.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 100, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 3, time = 100, timeUnit = TimeUnit.MILLISECONDS)
public class StreamBenchmarks {
    static final int K = 100;

    @State(Scope.Benchmark)
    public static class Streamed extends Metered {
        @Param({"c", "raw", "typed"})
        public String variant;

        Loop put8;
        private SymmetricBuffer buffer;
        private HipStream stream;

        @Setup(Level.Trial)
        public void setUp() {
            Rocshmem shmem = Pe.session();
            buffer = shmem.calloc(2, Long.BYTES); // collective; word 0 is the destination, word 1 the source
            buffer.asLongs().slice(1, 1).copyFrom(new long[] {RmaBenchmarks.marker(shmem.myPe(), 5)});
            stream = HipStream.create();
            int peer = Pe.peer();
            switch (Variant.of(variant)) {
                case C -> {
                    long base = buffer.address();
                    long handle = stream.address();
                    put8 = k -> {
                        int status = NativeLoops.putmem_on_stream(base, base + 8, 8, peer, handle, k);
                        if (status != 0) {
                            throw new IllegalStateException("hipStreamSynchronize returned " + status);
                        }
                        return 0;
                    };
                }
                case RAW -> {
                    Pointer dest = buffer.asBytePointer().position(0);
                    Pointer source = buffer.asBytePointer().position(8);
                    ihipStream_t handle = stream.handle();
                    put8 = k -> {
                        for (int i = 0; i < k; i++) {
                            rocshmem_putmem_on_stream(dest, source, 8, peer, handle);
                        }
                        int status = hipStreamSynchronize(handle);
                        if (status != 0) {
                            throw new IllegalStateException("hipStreamSynchronize returned " + status);
                        }
                        return 0;
                    };
                }
                case TYPED -> {
                    SymmetricBytes dest = buffer.asBytes().slice(0, 8);
                    SymmetricBytes source = buffer.asBytes().slice(8, 8);
                    HipStream onStream = stream;
                    put8 = k -> {
                        for (int i = 0; i < k; i++) {
                            dest.putmemOnStream(onStream, peer, source);
                        }
                        onStream.synchronize();
                        return 0;
                    };
                }
            }
            shmem.barrierAll();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            Rocshmem shmem = Pe.session();
            stream.close();
            shmem.barrierAll();
            try {
                int writer = (shmem.myPe() - 1 + shmem.nPes()) % shmem.nPes();
                RmaBenchmarks.expect("putmem_on_stream", buffer.asLongs().slice(0, 1).toArray()[0],
                        RmaBenchmarks.marker(writer, 5));
            } finally {
                buffer.close(); // collective
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(K)
    public long putmem_on_stream_8B(Streamed s) {
        s.operations += K;
        return s.put8.run(K);
    }
}
