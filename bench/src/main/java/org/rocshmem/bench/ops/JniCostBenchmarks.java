package org.rocshmem.bench.ops;

import java.util.concurrent.TimeUnit;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rocshmem.bench.Metered;
import org.rocshmem.bench.NativeLoops;

/**
 * What a JNI crossing costs by itself: natives that do nothing in C, called from a Java loop, with no
 * arguments, with the typed API's argument shape (raw addresses) and with the raw binding's (two JavaCPP
 * Pointers, whose address and position fields the JNI code reads back). The gap between a variant and the C
 * loop should be about these figures plus the Java-side checks.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 100, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 3, time = 100, timeUnit = TimeUnit.MILLISECONDS)
public class JniCostBenchmarks {
    static final int K = 1000;

    @State(Scope.Benchmark)
    public static class Probe extends Metered {
        Pointer dest;
        Pointer source;

        @Setup(Level.Trial)
        public void setUp() {
            dest = new BytePointer(64);
            source = new BytePointer(64).position(8);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            dest.close();
            source.close();
        }
    }

    @Benchmark
    @OperationsPerInvocation(K)
    public void jni_empty(Probe s) {
        s.operations += K;
        for (int i = 0; i < K; i++) {
            NativeLoops.empty();
        }
    }

    @Benchmark
    @OperationsPerInvocation(K)
    public void jni_address_args(Probe s) {
        s.operations += K;
        long d = s.dest.address();
        for (int i = 0; i < K; i++) {
            NativeLoops.empty_args(d, d + 8, 8, 1);
        }
    }

    @Benchmark
    @OperationsPerInvocation(K)
    public void jni_pointer_args(Probe s) {
        s.operations += K;
        Pointer d = s.dest;
        Pointer src = s.source;
        for (int i = 0; i < K; i++) {
            NativeLoops.empty_pointers(d, src, 8, 1);
        }
    }
}
