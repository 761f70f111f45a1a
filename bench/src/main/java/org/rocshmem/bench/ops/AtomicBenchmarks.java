package org.rocshmem.bench.ops;

import java.util.concurrent.TimeUnit;
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
import org.rocshmem.api.CType;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.bench.Loop;
import org.rocshmem.bench.Metered;
import org.rocshmem.bench.Pe;
import org.rocshmem.bench.Variant;

/** The host atomic matrix, one row per operation for int64_t and int32_t, each on a word of the peer PE. */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 1, time = 100, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 2, time = 100, timeUnit = TimeUnit.MILLISECONDS)
public class AtomicBenchmarks {
    static final int K = 1000;

    @State(Scope.Benchmark)
    public static class Atomic extends Metered {
        @Param({"fetch", "set", "swap", "compare_swap", "inc", "fetch_inc", "add", "fetch_add", "and", "fetch_and",
                "or", "fetch_or", "xor", "fetch_xor"})
        public String op;

        @Param({"int64", "int32"})
        public String type;

        @Param({"c", "raw", "typed"})
        public String variant;

        Loop loop;
        private SymmetricBuffer buffer;

        @Setup(Level.Trial)
        public void setUp() {
            Rocshmem shmem = Pe.session();
            buffer = shmem.calloc(8, Long.BYTES); // collective
            int peer = Pe.peer();
            boolean int64 = type.equals("int64");
            loop = switch (Variant.of(variant)) {
                case C -> int64 ? AtomicLoops.cInt64(op, buffer.address(), peer)
                        : AtomicLoops.cInt32(op, buffer.address(), peer);
                case RAW -> int64 ? AtomicLoops.rawInt64(op, buffer.asLongPointer(), peer)
                        : AtomicLoops.rawInt32(op, buffer.asIntPointer(), peer);
                case TYPED -> int64 ? AtomicLoops.typedInt64(op, buffer.asLongs(CType.INT64).slice(0, 1), peer)
                        : AtomicLoops.typedInt32(op, buffer.asInts(CType.INT32).slice(0, 1), peer);
            };
            shmem.barrierAll();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            Pe.session().barrierAll();
            buffer.close(); // collective
        }
    }

    @Benchmark
    @OperationsPerInvocation(K)
    public long atomic(Atomic s) {
        s.operations += K;
        return s.loop.run(K);
    }
}
