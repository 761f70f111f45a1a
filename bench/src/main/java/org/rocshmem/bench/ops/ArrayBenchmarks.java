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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.rocshmem.api.CType;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.bench.Metered;
import org.rocshmem.bench.Pe;

/**
 * Typed blocking put/get of 64 KiB to 16 MiB of {@code long}s with a Java array as the local side, against the same
 * transfer between two views (issue 17 item 2: an array transfer must cost what a view transfer costs). Parameter
 * {@code form}: {@code view} ({@code dest.put(pe, sourceView)}, {@code remote.get(pe, localView)}) or {@code array}
 * ({@code dest.put(pe, long[])}, {@code remote.get(pe, long[])}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 100, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 100, timeUnit = TimeUnit.MILLISECONDS)
public class ArrayBenchmarks {
    static final int[] SIZES = {RmaBenchmarks.KIB64, RmaBenchmarks.MIB1, RmaBenchmarks.MIB16};
    /** Longs from element 0: the remote side; from {@link #SOURCE}: the local view of the view form. */
    static final long SOURCE = RmaBenchmarks.MIB16 / Long.BYTES;

    @State(Scope.Benchmark)
    public static class Transfers extends Metered {
        @Param({"view", "array"})
        public String form;

        final Step[] put = new Step[SIZES.length];
        final Step[] get = new Step[SIZES.length];
        private SymmetricBuffer buffer;
        private long[][] arrays;
        private SymmetricLongs longs;
        private String benchmark;

        @Setup(Level.Trial)
        public void setUp(BenchmarkParams params) {
            benchmark = params.getBenchmark();
            Rocshmem shmem = Pe.session();
            buffer = shmem.calloc(2L * RmaBenchmarks.MIB16, 1); // collective: the same trials on every PE
            longs = buffer.asLongs(CType.INT64);
            int me = shmem.myPe();
            int peer = Pe.peer();
            arrays = new long[SIZES.length][];
            for (int i = 0; i < SIZES.length; i++) {
                int n = SIZES[i] / Long.BYTES;
                SymmetricLongs remote = longs.slice(0, n);
                SymmetricLongs local = longs.slice(SOURCE, n);
                long[] array = new long[n];
                arrays[i] = array;
                array[n - 1] = RmaBenchmarks.marker(me, 7);
                local.set(n - 1, RmaBenchmarks.marker(me, 7));
                remote.set(n - 1, RmaBenchmarks.marker(me, 3));
                if (form.equals("view")) {
                    put[i] = k -> {
                        for (int j = 0; j < k; j++) {
                            remote.put(peer, local);
                        }
                    };
                    get[i] = k -> {
                        for (int j = 0; j < k; j++) {
                            remote.get(peer, local);
                        }
                    };
                } else {
                    put[i] = k -> {
                        for (int j = 0; j < k; j++) {
                            remote.put(peer, array);
                        }
                    };
                    get[i] = k -> {
                        for (int j = 0; j < k; j++) {
                            remote.get(peer, array);
                        }
                    };
                }
            }
            shmem.barrierAll();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            Rocshmem shmem = Pe.session();
            shmem.barrierAll();
            try {
                verify(shmem);
            } finally {
                buffer.close();
            }
        }

        /** The data moved: a put left the peer's marker in this PE's remote side, a get the peer's in the local side. */
        private void verify(Rocshmem shmem) {
            String op = benchmark.substring(benchmark.lastIndexOf('.') + 1);
            int i = java.util.Arrays.binarySearch(SIZES, RmaBenchmarks.sizeOf(op));
            int n = SIZES[i] / Long.BYTES;
            int writer = (shmem.myPe() - 1 + shmem.nPes()) % shmem.nPes();
            if (op.startsWith("put")) {
                RmaBenchmarks.expect(op, longs.get(n - 1), RmaBenchmarks.marker(writer, 7));
            } else {
                long got = form.equals("view") ? longs.get(SOURCE + n - 1) : arrays[i][n - 1];
                RmaBenchmarks.expect(op, got, RmaBenchmarks.marker(Pe.peer(), 3));
            }
        }
    }

    /** k transfers. */
    interface Step {
        void run(int k);
    }

    @Benchmark
    @OperationsPerInvocation(RmaBenchmarks.K64)
    public void put_longs_64KiB(Transfers s) {
        s.operations += RmaBenchmarks.K64;
        s.put[0].run(RmaBenchmarks.K64);
    }

    @Benchmark
    @OperationsPerInvocation(RmaBenchmarks.M1)
    public void put_longs_1MiB(Transfers s) {
        s.operations += RmaBenchmarks.M1;
        s.put[1].run(RmaBenchmarks.M1);
    }

    @Benchmark
    @OperationsPerInvocation(RmaBenchmarks.M16)
    public void put_longs_16MiB(Transfers s) {
        s.operations += RmaBenchmarks.M16;
        s.put[2].run(RmaBenchmarks.M16);
    }

    @Benchmark
    @OperationsPerInvocation(RmaBenchmarks.K64)
    public void get_longs_64KiB(Transfers s) {
        s.operations += RmaBenchmarks.K64;
        s.get[0].run(RmaBenchmarks.K64);
    }

    @Benchmark
    @OperationsPerInvocation(RmaBenchmarks.M1)
    public void get_longs_1MiB(Transfers s) {
        s.operations += RmaBenchmarks.M1;
        s.get[1].run(RmaBenchmarks.M1);
    }

    @Benchmark
    @OperationsPerInvocation(RmaBenchmarks.M16)
    public void get_longs_16MiB(Transfers s) {
        s.operations += RmaBenchmarks.M16;
        s.get[2].run(RmaBenchmarks.M16);
    }
}
