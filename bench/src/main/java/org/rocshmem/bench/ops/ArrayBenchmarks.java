package org.rocshmem.bench.ops;

import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.rocshmem.api.CType;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.bench.Measurements;
import org.rocshmem.bench.Metered;
import org.rocshmem.bench.Pe;
import org.rocshmem.bench.Split;

/**
 * Typed blocking put/get of 64 KiB to 16 MiB of {@code long}s with a Java array as the local side, against the same
 * transfer between two views (issue 17 item 2: an array transfer must cost what a view transfer costs): the view form
 * ({@code dest.put(pe, sourceView)}, {@code remote.get(pe, localView)}) and the array form ({@code dest.put(pe,
 * long[])}, {@code remote.get(pe, long[])}).
 *
 * <p>The forms are interleaved inside every invocation (a block of k calls of each in turn, the first one rotating
 * between invocations) and timed block by block ({@link Split}): all see the same machine, the same peer activity
 * and the same cache state, so their ratios are not moved by a PE that waited for a CPU during one trial of several.
 * Each measurement iteration is recorded once per form (wall ns, allocated bytes, calls and CPU ns of its blocks).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 100, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 100, timeUnit = TimeUnit.MILLISECONDS)
public class ArrayBenchmarks {
    static final int[] SIZES = {RmaBenchmarks.KIB64, RmaBenchmarks.MIB1, RmaBenchmarks.MIB16};
    /** Longs from element 0: the remote side; from {@link #SOURCE}: the local view of the view form. */
    static final long SOURCE = RmaBenchmarks.MIB16 / Long.BYTES;
    /**
     * The forms, as the records name them; indexes into {@link Transfers#put} and {@link Transfers#get}. {@code
     * view16} is the view form with its local side 16 bytes past the 128-byte alignment, where a Java array's elements
     * start (after the array header): a CPU copy is slower when source and destination are not equally aligned, and
     * this form shows how much of the array form's cost that is, rather than the binding's.
     */
    public static final String[] FORMS = {"view", "array", "view16"};
    /** FORMS.length, as a constant for {@code @OperationsPerInvocation}. */
    static final int FORM_COUNT = 3;
    static final int VIEW = 0;
    static final int ARRAY = 1;
    static final int VIEW16 = 2;
    /** Where the view16 form's local side starts: a region of its own, 16 bytes (a long[]'s header) past alignment. */
    static final long SOURCE16 = 2 * SOURCE + 2;

    static {
        if (FORMS.length != FORM_COUNT) {
            throw new AssertionError("FORM_COUNT must be FORMS.length");
        }
    }

    @State(Scope.Benchmark)
    public static class Transfers extends Metered {
        /** [size][form] with forms in {@link #FORMS} order. */
        final Split.Block[][] put = new Split.Block[SIZES.length][FORMS.length];
        final Split.Block[][] get = new Split.Block[SIZES.length][FORMS.length];
        private final Split split = new Split(FORMS);
        private SymmetricBuffer buffer;
        private long[][] arrays;
        private SymmetricLongs longs;
        private String benchmark;

        @Setup(Level.Trial)
        public void setUp(BenchmarkParams params) {
            benchmark = params.getBenchmark();
            split.trial(Measurements.key(params));
            Rocshmem shmem = Pe.session();
            // remote side, view local side, view16 local side; collective: the same trials on every PE
            buffer = shmem.calloc(3L * RmaBenchmarks.MIB16 + 128, 1);
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
                put[i][VIEW] = k -> {
                    for (int j = 0; j < k; j++) {
                        remote.put(peer, local);
                    }
                };
                get[i][VIEW] = k -> {
                    for (int j = 0; j < k; j++) {
                        remote.get(peer, local);
                    }
                };
                SymmetricLongs shifted = longs.slice(SOURCE16, n);
                shifted.set(n - 1, RmaBenchmarks.marker(me, 7));
                put[i][VIEW16] = k -> {
                    for (int j = 0; j < k; j++) {
                        remote.put(peer, shifted);
                    }
                };
                get[i][VIEW16] = k -> {
                    for (int j = 0; j < k; j++) {
                        remote.get(peer, shifted);
                    }
                };
                put[i][ARRAY] = k -> {
                    for (int j = 0; j < k; j++) {
                        remote.put(peer, array);
                    }
                };
                get[i][ARRAY] = k -> {
                    for (int j = 0; j < k; j++) {
                        remote.get(peer, array);
                    }
                };
            }
            shmem.barrierAll();
        }

        @Override
        protected void beforeIteration() {
            split.startIteration();
        }

        @Override
        protected void afterIteration(boolean measuring) {
            split.endIteration(measuring);
        }

        /** k calls of each form, the first form rotating between invocations. */
        void interleave(Split.Block[] forms, int k) {
            operations += (long) forms.length * k;
            split.run(forms, k);
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

        /** The data moved: a put left the peer's marker in this PE's remote side, a get the peer's in both local sides. */
        private void verify(Rocshmem shmem) {
            String op = benchmark.substring(benchmark.lastIndexOf('.') + 1);
            int i = java.util.Arrays.binarySearch(SIZES, RmaBenchmarks.sizeOf(op));
            int n = SIZES[i] / Long.BYTES;
            int writer = (shmem.myPe() - 1 + shmem.nPes()) % shmem.nPes();
            if (op.startsWith("put")) {
                RmaBenchmarks.expect(op, longs.get(n - 1), RmaBenchmarks.marker(writer, 7));
            } else {
                RmaBenchmarks.expect(op + " view", longs.get(SOURCE + n - 1), RmaBenchmarks.marker(Pe.peer(), 3));
                RmaBenchmarks.expect(op + " array", arrays[i][n - 1], RmaBenchmarks.marker(Pe.peer(), 3));
                RmaBenchmarks.expect(op + " view16", longs.get(SOURCE16 + n - 1),
                        RmaBenchmarks.marker(Pe.peer(), 3));
            }
        }
    }


    @Benchmark
    @OperationsPerInvocation(FORM_COUNT * RmaBenchmarks.K64)
    public void put_longs_64KiB(Transfers s) {
        s.interleave(s.put[0], RmaBenchmarks.K64);
    }

    @Benchmark
    @OperationsPerInvocation(FORM_COUNT * RmaBenchmarks.M1)
    public void put_longs_1MiB(Transfers s) {
        s.interleave(s.put[1], RmaBenchmarks.M1);
    }

    @Benchmark
    @OperationsPerInvocation(FORM_COUNT * RmaBenchmarks.M16)
    public void put_longs_16MiB(Transfers s) {
        s.interleave(s.put[2], RmaBenchmarks.M16);
    }

    @Benchmark
    @OperationsPerInvocation(FORM_COUNT * RmaBenchmarks.K64)
    public void get_longs_64KiB(Transfers s) {
        s.interleave(s.get[0], RmaBenchmarks.K64);
    }

    @Benchmark
    @OperationsPerInvocation(FORM_COUNT * RmaBenchmarks.M1)
    public void get_longs_1MiB(Transfers s) {
        s.interleave(s.get[1], RmaBenchmarks.M1);
    }

    @Benchmark
    @OperationsPerInvocation(FORM_COUNT * RmaBenchmarks.M16)
    public void get_longs_16MiB(Transfers s) {
        s.interleave(s.get[2], RmaBenchmarks.M16);
    }
}
