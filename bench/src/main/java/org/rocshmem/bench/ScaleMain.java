package org.rocshmem.bench;

import java.util.Arrays;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.api.Team;

/**
 * The Java rows of the scaling benchmark (bench/README.md, "Scaling"): the typed API's host barrier, {@code long} p
 * rate to the next PE, contended fetch_add on PE 0, sum reductions of 64 B, 64 KiB and 8 MiB and a 64 KiB-per-pair
 * alltoallmem on a stream, each PE in its own JVM started by the project's launcher:
 *
 * <pre>
 * java -cp ... org.rocshmem.api.launch.Launcher --nproc N -- org.rocshmem.bench.ScaleMain [--quick]
 * </pre>
 *
 * Prints the same {@code RESULT scale ...} lines as the C program {@code rocshmem-emu-scale} (PE 0's median over
 * trials; op names start with {@code java_}), checks every result and exits 1 on a wrong one. Each row first runs
 * untimed long enough for the JIT to compile its loop.
 */
public final class ScaleMain {
    private static boolean quick;
    private static int me;
    private static int pes;
    private static int failures;

    private ScaleMain() {
    }

    /** One call of the row's operation. */
    @FunctionalInterface
    private interface Op {
        void run();
    }

    public static void main(String[] args) {
        quick = Arrays.asList(args).contains("--quick");
        try (Rocshmem shmem = Rocshmem.init()) {
            me = shmem.myPe();
            pes = shmem.nPes();
            barrier(shmem);
            putRate(shmem);
            fetchAdd(shmem);
            for (long bytes : new long[] {64, 64 << 10, 8 << 20}) {
                reduce(shmem, bytes);
            }
            alltoall(shmem, 64 << 10);
            shmem.barrierAll();
        }
        if (failures > 0) {
            System.exit(1);
        }
    }

    private static void barrier(Rocshmem shmem) {
        report("java_host_barrier_all", 0, secondsPerCall(shmem, quick ? 50 : 2000, shmem::barrierAll) * 1e6, "us");
    }

    private static void putRate(Rocshmem shmem) {
        try (SymmetricBuffer slot = shmem.calloc(1, Long.BYTES)) {
            SymmetricLongs longs = slot.asLongs();
            int peer = (me + 1) % pes;
            long[] value = {0};
            double s = secondsPerCall(shmem, quick ? 1000 : 200_000, () -> longs.p(peer, 0, ++value[0]));
            shmem.quiet();
            shmem.barrierAll();
            if (longs.get(0) <= 0) {
                fail("long p: nothing arrived");
            }
            report("java_host_long_p_rate", 8, 1e-6 / s, "Mops/s");
        }
    }

    private static void fetchAdd(Rocshmem shmem) {
        try (SymmetricBuffer slot = shmem.calloc(1, Long.BYTES)) {
            SymmetricLongs counter = slot.asLongs();
            int calls = quick ? 500 : 20_000;
            double s = secondsPerCall(shmem, calls, () -> counter.atomicFetchAdd(0, 0, 1));
            long expected = (long) pes * calls * (trials() + warmups());
            if (me == 0 && counter.get(0) != expected) {
                fail("fetch_add under contention: counter " + counter.get(0) + ", expected " + expected);
            }
            report("java_host_fetch_add_contended", 8, s * 1e9, "ns");
            shmem.barrierAll();
        }
    }

    private static void reduce(Rocshmem shmem, long bytes) {
        long size = quick ? Math.min(bytes, 256 << 10) : bytes;
        int n = (int) (size / Long.BYTES);
        try (SymmetricBuffer in = shmem.malloc(size); SymmetricBuffer out = shmem.malloc(size)) {
            SymmetricLongs source = in.asLongs();
            SymmetricLongs dest = out.asLongs();
            long[] mine = new long[n];
            for (int i = 0; i < n; i++) {
                mine[i] = me * 7L + i;
            }
            source.copyFrom(mine);
            shmem.barrierAll();
            Team world = shmem.world();
            double s = secondsPerCall(shmem, callsFor(size), () -> world.sumReduce(dest, source));
            long last = 7L * pes * (pes - 1) / 2 + (long) pes * (n - 1);
            if (dest.get(n - 1) != last) {
                fail("sum_reduce of " + size + " B: last element " + dest.get(n - 1) + ", expected " + last);
            }
            report("java_host_sum_reduce", size, s * 1e6, "us");
            shmem.barrierAll();
        }
    }

    private static void alltoall(Rocshmem shmem, long perPe) {
        long block = quick ? Math.min(perPe, 4 << 10) : perPe;
        try (SymmetricBuffer in = shmem.malloc(block * pes); SymmetricBuffer out = shmem.malloc(block * pes);
             HipStream stream = HipStream.create()) {
            SymmetricLongs source = in.asLongs();
            SymmetricLongs dest = out.asLongs();
            int perBlock = (int) (block / Long.BYTES);
            for (int p = 0; p < pes; p++) {
                source.set((long) p * perBlock + perBlock - 1, me * 1000L + p);
            }
            shmem.barrierAll();
            Team world = shmem.world();
            double s = secondsPerCall(shmem, callsFor(block * pes), () -> {
                world.alltoallmem(stream, dest, source);
                stream.synchronize();
            });
            for (int p = 0; p < pes; p++) {
                if (dest.get((long) p * perBlock + perBlock - 1) != p * 1000L + me) {
                    fail("alltoallmem_on_stream: wrong block from PE " + p);
                }
            }
            report("java_stream_alltoallmem", block, s * 1e6, "us");
            shmem.barrierAll();
        }
    }

    private static int trials() {
        return quick ? 2 : 5;
    }

    private static int warmups() {
        return quick ? 1 : 3;
    }

    private static int callsFor(long bytes) {
        if (quick) {
            return 2;
        }
        return (int) Math.max(3, Math.min(2000, (64L << 20) / Math.max(bytes, 1)));
    }

    /** Median over trials of the seconds per call; untimed warm-up trials first (JIT), PEs lined up by barriers. */
    private static double secondsPerCall(Rocshmem shmem, int calls, Op op) {
        for (int w = 0; w < warmups(); w++) {
            for (int i = 0; i < calls; i++) {
                op.run();
            }
        }
        double[] perCall = new double[trials()];
        for (int t = 0; t < perCall.length; t++) {
            shmem.barrierAll();
            long start = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                op.run();
            }
            perCall[t] = (System.nanoTime() - start) * 1e-9 / calls;
        }
        shmem.barrierAll();
        Arrays.sort(perCall);
        return perCall[perCall.length / 2];
    }

    private static void fail(String what) {
        System.err.println("ScaleMain: PE " + me + ": " + what);
        failures++;
    }

    private static void report(String op, long bytes, double value, String unit) {
        if (me == 0) {
            System.out.printf("RESULT scale op=%s bytes=%d pes=%d value=%.4f unit=%s%n", op, bytes, pes, value, unit);
        }
    }
}
