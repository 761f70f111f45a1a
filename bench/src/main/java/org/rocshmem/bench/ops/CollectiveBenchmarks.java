package org.rocshmem.bench.ops;

import static org.rocshmem.global.rocshmem.rocshmem_barrier_all;
import static org.rocshmem.global.rocshmem.rocshmem_ctx_create;
import static org.rocshmem.global.rocshmem.rocshmem_ctx_destroy;
import static org.rocshmem.global.rocshmem.rocshmem_ctx_long_broadcast;
import static org.rocshmem.global.rocshmem.rocshmem_ctx_long_sum_reduce;
import static org.rocshmem.global.rocshmem.rocshmem_team_sync;

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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.api.Team;
import org.rocshmem.bench.Loop;
import org.rocshmem.bench.Metered;
import org.rocshmem.bench.NativeLoops;
import org.rocshmem.bench.Pe;
import org.rocshmem.bench.Variant;
import org.rocshmem.rocshmem.rocshmem_ctx_t;

/**
 * Collectives over all PEs: barrier_all, team sync on the world team, a one-element long sum reduction and a
 * one-element long broadcast. Every PE must make exactly the same calls, so these run in single-shot mode: each
 * iteration is one invocation of K calls (JMH's time-based modes would let PEs make different numbers of calls).
 * An iteration-level barrier lines the PEs up before each timed invocation.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 25)
public class CollectiveBenchmarks {
    public static final int K = 1000;

    @State(Scope.Benchmark)
    public static class Collective extends Metered {
        @Param({"c", "raw", "typed"})
        public String variant;

        Loop barrierAll;
        Loop teamSync;
        Loop sumReduce;
        Loop broadcast;
        private SymmetricBuffer buffer;
        private rocshmem_ctx_t rawContext;
        private String benchmark;

        @Setup(Level.Trial)
        public void setUp(BenchmarkParams params) {
            benchmark = params.getBenchmark();
            Rocshmem shmem = Pe.session();
            buffer = shmem.calloc(4, Long.BYTES); // collective; words: reduce source, reduce dest, bcast src, dest
            buffer.asLongs().slice(0, 1).copyFrom(new long[] {shmem.myPe() + 1});
            buffer.asLongs().slice(2, 1).copyFrom(new long[] {100 + shmem.myPe()});
            Team world = shmem.world();
            switch (Variant.of(variant)) {
                case C, RAW -> {
                    rawContext = new rocshmem_ctx_t();
                    int status = rocshmem_ctx_create(0, rawContext);
                    if (status != 0) {
                        throw new IllegalStateException("rocshmem_ctx_create failed with status " + status);
                    }
                }
                case TYPED -> {
                }
            }
            long team = world.handle();
            switch (Variant.of(variant)) {
                case C -> {
                    long ctx = rawContext.address();
                    long base = buffer.address();
                    barrierAll = k -> {
                        NativeLoops.barrier_all(k);
                        return 0;
                    };
                    teamSync = k -> {
                        NativeLoops.team_sync(team, k);
                        return 0;
                    };
                    sumReduce = k -> NativeLoops.ctx_long_sum_reduce(ctx, team, base + 8, base, 1, k);
                    broadcast = k -> {
                        NativeLoops.ctx_long_broadcast(ctx, team, base + 24, base + 16, 1, 0, k);
                        return 0;
                    };
                }
                case RAW -> {
                    rocshmem_ctx_t ctx = rawContext;
                    CLongPointer reduceSource = new CLongPointer(buffer.asLongPointer().position(0));
                    CLongPointer reduceDest = new CLongPointer(buffer.asLongPointer().position(1));
                    CLongPointer broadcastSource = new CLongPointer(buffer.asLongPointer().position(2));
                    CLongPointer broadcastDest = new CLongPointer(buffer.asLongPointer().position(3));
                    barrierAll = k -> {
                        for (int i = 0; i < k; i++) {
                            rocshmem_barrier_all();
                        }
                        return 0;
                    };
                    teamSync = k -> {
                        for (int i = 0; i < k; i++) {
                            rocshmem_team_sync(team);
                        }
                        return 0;
                    };
                    sumReduce = k -> {
                        int status = 0;
                        for (int i = 0; i < k; i++) {
                            status |= rocshmem_ctx_long_sum_reduce(ctx, team, reduceDest, reduceSource, 1);
                        }
                        return status;
                    };
                    broadcast = k -> {
                        for (int i = 0; i < k; i++) {
                            rocshmem_ctx_long_broadcast(ctx, team, broadcastDest, broadcastSource, 1, 0);
                        }
                        return 0;
                    };
                }
                case TYPED -> {
                    SymmetricLongs reduceSource = buffer.asLongs().slice(0, 1);
                    SymmetricLongs reduceDest = buffer.asLongs().slice(1, 1);
                    SymmetricLongs broadcastSource = buffer.asLongs().slice(2, 1);
                    SymmetricLongs broadcastDest = buffer.asLongs().slice(3, 1);
                    barrierAll = k -> {
                        for (int i = 0; i < k; i++) {
                            shmem.barrierAll();
                        }
                        return 0;
                    };
                    teamSync = k -> {
                        for (int i = 0; i < k; i++) {
                            world.sync();
                        }
                        return 0;
                    };
                    sumReduce = k -> {
                        for (int i = 0; i < k; i++) {
                            world.sumReduce(reduceDest, reduceSource);
                        }
                        return 0;
                    };
                    broadcast = k -> {
                        for (int i = 0; i < k; i++) {
                            world.broadcast(broadcastDest, broadcastSource, 0);
                        }
                        return 0;
                    };
                }
            }
            shmem.barrierAll();
        }

        /** Lines the PEs up right before each timed invocation, so no PE's timing starts with waiting for another. */
        @Override
        protected void beforeIteration() {
            Pe.session().barrierAll();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            Rocshmem shmem = Pe.session();
            shmem.barrierAll();
            try {
                String op = benchmark.substring(benchmark.lastIndexOf('.') + 1);
                long[] words = buffer.asLongs().toArray();
                int n = shmem.nPes();
                if (op.equals("sum_reduce")) {
                    RmaBenchmarks.expect(op, words[1], (long) n * (n + 1) / 2);
                } else if (op.equals("broadcast")) {
                    RmaBenchmarks.expect(op, words[3], 100); // PE 0's source (the root's own dest is set too)
                }
            } finally {
                if (rawContext != null) {
                    rocshmem_ctx_destroy(rawContext);
                    rawContext.close();
                }
                buffer.close(); // collective
            }
        }
    }

    /** A state with nothing but the allocation meter, for {@link #harness}. */
    @State(Scope.Benchmark)
    public static class Harness extends Metered {
    }

    /**
     * Does nothing: what JMH's single-shot harness itself allocates inside the metered window of an iteration (its
     * per-iteration result holder). The report subtracts it from the single-shot rows.
     */
    @Benchmark
    @OperationsPerInvocation(K)
    public long harness(Harness s) {
        s.operations += K;
        return 0;
    }

    @Benchmark
    @OperationsPerInvocation(K)
    public long barrier_all(Collective s) {
        s.operations += K;
        return s.barrierAll.run(K);
    }

    @Benchmark
    @OperationsPerInvocation(K)
    public long team_sync(Collective s) {
        s.operations += K;
        return s.teamSync.run(K);
    }

    @Benchmark
    @OperationsPerInvocation(K)
    public long sum_reduce(Collective s) {
        s.operations += K;
        return s.sumReduce.run(K);
    }

    @Benchmark
    @OperationsPerInvocation(K)
    public long broadcast(Collective s) {
        s.operations += K;
        return s.broadcast.run(K);
    }
}
