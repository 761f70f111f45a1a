package org.rocshmem.api.kernels;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.rocshmem.api.CType;
import org.rocshmem.api.hip.Dim3;
import org.rocshmem.api.hip.HipModule;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricInts;
import org.rocshmem.api.SymmetricLongs;

/**
 * The samples' kernel patterns with exact expected values (the kernels are the samples' own sources,
 * samples/src/main/hip, compiled into test resources by the build). Each runs on any number of PEs.
 */
final class KernelPatterns {
    private KernelPatterns() {
    }

    /** Every work-item of 2 blocks of 64 puts {@code me * 1000 + i} into element i of the next PE's inbox. */
    static void ring(Rocshmem shmem) {
        int me = shmem.myPe();
        int n = shmem.nPes();
        int items = 2 * 64;
        try (HipModule module = HipModule.loadResource("kernels/ring");
             SymmetricBuffer buffer = shmem.calloc(items, Integer.BYTES);
             HipStream stream = HipStream.create()) {
            shmem.initModule(module);
            SymmetricInts inbox = buffer.asInts();
            module.kernel("ring").launch(Dim3.of(2), Dim3.of(64), 0, stream, inbox);
            stream.synchronize();
            shmem.barrierAll();
            int prev = (me + n - 1) % n;
            int[] expected = new int[items];
            for (int i = 0; i < items; i++) {
                expected[i] = prev * 1000 + i;
            }
            assertArrayEquals(expected, inbox.toArray(), "PE " + me + "'s inbox from PE " + prev);
        }
    }

    /** Even PEs send 8 chunks of 32 longs to the next odd PE with putmem_signal_wg; it sums each after wait_until. */
    static void pipeline(Rocshmem shmem) {
        int me = shmem.myPe();
        int chunks = 8;
        int chunk = 32;
        try (HipModule module = HipModule.loadResource("kernels/pipeline");
             SymmetricBuffer staging = shmem.calloc((long) chunks * chunk, Long.BYTES);
             SymmetricBuffer source = shmem.calloc((long) chunks * chunk, Long.BYTES);
             SymmetricBuffer signal = shmem.calloc(1, Long.BYTES);
             SymmetricBuffer sums = shmem.calloc(chunks, Long.BYTES);
             HipStream stream = HipStream.create()) {
            shmem.initModule(module);
            long[] data = new long[chunks * chunk];
            for (int i = 0; i < data.length; i++) {
                data[i] = (long) me * 1_000_000 + i;
            }
            source.asLongs().copyFrom(data);
            shmem.barrierAll();
            module.kernel("pipeline").launch(Dim3.of(1), Dim3.of(64), 0, stream, staging.asLongs(), source.asLongs(),
                    signal.asLongs(CType.UINT64), sums.asLongs(), chunks, chunk);
            stream.synchronize();
            shmem.barrierAll();
            if (me % 2 == 1) {
                int producer = me - 1;
                long[] expected = new long[chunks];
                for (int c = 0; c < chunks; c++) {
                    for (int i = 0; i < chunk; i++) {
                        expected[c] += (long) producer * 1_000_000 + c * chunk + i;
                    }
                }
                assertArrayEquals(expected, sums.asLongs().toArray(), "PE " + me + "'s chunk sums");
                assertEquals(chunks, signal.asLongs().toArray()[0], "one signal ADD per chunk");
            }
        }
    }

    /** 1000 values per PE, (pe * 7 + i * 3) % 16, counted by remote atomic adds into PE 0's 16 bins. */
    static void histogram(Rocshmem shmem) {
        int me = shmem.myPe();
        int n = shmem.nPes();
        int count = 1000;
        int nbins = 16;
        try (HipModule module = HipModule.loadResource("kernels/histogram");
             SymmetricBuffer bins = shmem.calloc(nbins, Integer.BYTES);
             SymmetricBuffer values = shmem.calloc(count, Integer.BYTES);
             HipStream stream = HipStream.create()) {
            shmem.initModule(module);
            int[] mine = new int[count];
            for (int i = 0; i < count; i++) {
                mine[i] = (me * 7 + i * 3) % nbins;
            }
            values.asInts().copyFrom(mine);
            shmem.barrierAll();
            module.kernel("histogram").launch(Dim3.of(4), Dim3.of(64), 0, stream, bins.asInts(), values.asInts(),
                    count, nbins);
            stream.synchronize();
            shmem.barrierAll();
            if (me == 0) {
                int[] expected = new int[nbins];
                for (int pe = 0; pe < n; pe++) {
                    for (int i = 0; i < count; i++) {
                        expected[(pe * 7 + i * 3) % nbins]++;
                    }
                }
                assertArrayEquals(expected, bins.asInts().toArray(), "PE 0's histogram");
            }
        }
    }

    /** source[i] = pe * 100 + i on every PE; every dest[i] becomes the sum over the PEs. */
    static void allreduce(Rocshmem shmem) {
        int me = shmem.myPe();
        int n = shmem.nPes();
        int count = 100;
        try (HipModule module = HipModule.loadResource("kernels/allreduce");
             SymmetricBuffer dest = shmem.calloc(count, Integer.BYTES);
             SymmetricBuffer source = shmem.calloc(count, Integer.BYTES);
             HipStream stream = HipStream.create()) {
            shmem.initModule(module);
            int[] mine = new int[count];
            for (int i = 0; i < count; i++) {
                mine[i] = me * 100 + i;
            }
            source.asInts().copyFrom(mine);
            shmem.barrierAll();
            module.kernel("allreduce").launch(Dim3.of(1), Dim3.of(64), 0, stream, dest.asInts(), source.asInts(),
                    count);
            stream.synchronize();
            int[] expected = new int[count];
            for (int i = 0; i < count; i++) {
                expected[i] = 100 * n * (n - 1) / 2 + n * i;
            }
            assertArrayEquals(expected, dest.asInts().toArray(), "PE " + me + "'s reduction");
            shmem.barrierAll();
        }
    }

    /**
     * One stream: put into the next PE, barrier, the scale kernel (x3) on what arrived, put it back to the previous
     * PE, barrier. Each PE ends with three times its own data.
     */
    static void streamMix(Rocshmem shmem) {
        int me = shmem.myPe();
        int n = shmem.nPes();
        int count = 256;
        try (HipModule module = HipModule.loadResource("kernels/scale");
             SymmetricBuffer outbox = shmem.calloc(count, Long.BYTES);
             SymmetricBuffer inbox = shmem.calloc(count, Long.BYTES);
             SymmetricBuffer back = shmem.calloc(count, Long.BYTES);
             HipStream stream = HipStream.create()) {
            long[] mine = new long[count];
            for (int i = 0; i < count; i++) {
                mine[i] = me * 10_000L + i;
            }
            outbox.asLongs().copyFrom(mine);
            shmem.barrierAll();
            SymmetricLongs in = inbox.asLongs();
            in.putmemOnStream(stream, (me + 1) % n, outbox.asLongs());
            shmem.barrierAll(stream);
            module.kernel("scale").launch(Dim3.of(2), Dim3.of(64), 0, stream, in, count, 3L);
            back.asLongs().putmemOnStream(stream, (me + n - 1) % n, in);
            shmem.barrierAll(stream);
            stream.synchronize();
            long[] expected = new long[count];
            for (int i = 0; i < count; i++) {
                expected[i] = 3 * mine[i];
            }
            assertArrayEquals(expected, back.asLongs().toArray(), "PE " + me + "'s data after the round trip");
        }
    }
}
