package org.rocshmem.bench.ops;

import static org.rocshmem.global.rocshmem.ROCSHMEM_CMP_EQ;
import static org.rocshmem.global.rocshmem.ROCSHMEM_CMP_GE;
import static org.rocshmem.global.rocshmem.rocshmem_fence;
import static org.rocshmem.global.rocshmem.rocshmem_long_test;
import static org.rocshmem.global.rocshmem.rocshmem_long_wait_until;
import static org.rocshmem.global.rocshmem.rocshmem_quiet;

import java.util.concurrent.TimeUnit;
import org.bytedeco.javacpp.CLongPointer;
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
import org.rocshmem.api.Compare;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.bench.Loop;
import org.rocshmem.bench.Metered;
import org.rocshmem.bench.NativeLoops;
import org.rocshmem.bench.Pe;
import org.rocshmem.bench.Variant;

/**
 * Point-to-point synchronization on a local word (wait_until on a condition that already holds, test), and the
 * ordering/completion calls quiet and fence: the per-call cost of the entry points themselves.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 100, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 3, time = 100, timeUnit = TimeUnit.MILLISECONDS)
public class SyncBenchmarks {
    static final int K = 1000;

    @State(Scope.Benchmark)
    public static class Sync extends Metered {
        @Param({"c", "raw", "typed"})
        public String variant;

        Loop waitUntil;
        Loop test;
        Loop quiet;
        Loop fence;
        private SymmetricBuffer buffer;

        @Setup(Level.Trial)
        public void setUp() {
            Rocshmem shmem = Pe.session();
            buffer = shmem.calloc(4, Long.BYTES); // collective; word 0 stays 0
            switch (Variant.of(variant)) {
                case C -> {
                    long word = buffer.address();
                    waitUntil = k -> {
                        NativeLoops.long_wait_until(word, ROCSHMEM_CMP_EQ, 0, k);
                        return 0;
                    };
                    test = k -> NativeLoops.long_test(word, ROCSHMEM_CMP_GE, 0, k);
                    quiet = k -> {
                        NativeLoops.quiet(k);
                        return 0;
                    };
                    fence = k -> {
                        NativeLoops.fence(k);
                        return 0;
                    };
                }
                case RAW -> {
                    CLongPointer word = new CLongPointer(buffer.asLongPointer());
                    waitUntil = k -> {
                        for (int i = 0; i < k; i++) {
                            rocshmem_long_wait_until(word, ROCSHMEM_CMP_EQ, 0);
                        }
                        return 0;
                    };
                    test = k -> {
                        long satisfied = 0;
                        for (int i = 0; i < k; i++) {
                            satisfied += rocshmem_long_test(word, ROCSHMEM_CMP_GE, 0);
                        }
                        return satisfied;
                    };
                    quiet = k -> {
                        for (int i = 0; i < k; i++) {
                            rocshmem_quiet();
                        }
                        return 0;
                    };
                    fence = k -> {
                        for (int i = 0; i < k; i++) {
                            rocshmem_fence();
                        }
                        return 0;
                    };
                }
                case TYPED -> {
                    SymmetricLongs words = buffer.asLongs().slice(0, 1);
                    waitUntil = k -> {
                        for (int i = 0; i < k; i++) {
                            words.waitUntil(0, Compare.EQ, 0);
                        }
                        return 0;
                    };
                    test = k -> {
                        long satisfied = 0;
                        for (int i = 0; i < k; i++) {
                            satisfied += words.test(0, Compare.GE, 0) ? 1 : 0;
                        }
                        return satisfied;
                    };
                    quiet = k -> {
                        for (int i = 0; i < k; i++) {
                            shmem.quiet();
                        }
                        return 0;
                    };
                    fence = k -> {
                        for (int i = 0; i < k; i++) {
                            shmem.fence();
                        }
                        return 0;
                    };
                }
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            buffer.close(); // collective
        }
    }

    @Benchmark
    @OperationsPerInvocation(K)
    public long wait_until(Sync s) {
        s.operations += K;
        return s.waitUntil.run(K);
    }

    @Benchmark
    @OperationsPerInvocation(K)
    public long test(Sync s) {
        s.operations += K;
        long satisfied = s.test.run(K);
        if (satisfied != K) {
            throw new IllegalStateException("test: " + satisfied + " of " + K + " calls saw the condition that holds");
        }
        return satisfied;
    }

    @Benchmark
    @OperationsPerInvocation(K)
    public long quiet(Sync s) {
        s.operations += K;
        return s.quiet.run(K);
    }

    @Benchmark
    @OperationsPerInvocation(K)
    public long fence(Sync s) {
        s.operations += K;
        return s.fence.run(K);
    }
}
