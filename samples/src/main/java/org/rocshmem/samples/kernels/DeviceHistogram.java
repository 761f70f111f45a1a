package org.rocshmem.samples.kernels;

import org.rocshmem.api.hip.Dim3;
import org.rocshmem.api.hip.HipModule;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;

/**
 * A histogram of every PE's values, counted in PE 0's bins by device atomics ({@code rocshmem_int_atomic_add}
 * from every work-item of every PE; src/main/hip/kernels/histogram.hip).
 *
 * <pre>
 * ./samples/run.sh kernels.DeviceHistogram 4
 * </pre>
 */
public final class DeviceHistogram {
    private DeviceHistogram() {
    }

    public static void main(String[] args) {
        int count = 4096;
        int nbins = 32;
        try (Rocshmem shmem = Rocshmem.init();
             HipModule module = HipModule.loadResource("kernels/histogram");
             SymmetricBuffer bins = shmem.calloc(nbins, Integer.BYTES);
             SymmetricBuffer values = shmem.calloc(count, Integer.BYTES);
             HipStream stream = HipStream.create()) {
            shmem.initModule(module);
            int me = shmem.myPe();
            values.asInts().copyFrom(valuesOf(me, count, nbins));
            shmem.barrierAll();
            module.kernel("histogram").launch(Dim3.of(8), Dim3.of(64), 0, stream, bins.asInts(), values.asInts(),
                    count, nbins);
            stream.synchronize();
            shmem.barrierAll();
            if (me == 0) {
                int[] expected = new int[nbins];
                for (int pe = 0; pe < shmem.nPes(); pe++) {
                    for (int v : valuesOf(pe, count, nbins)) {
                        expected[v]++;
                    }
                }
                Verify.equal("histogram of " + shmem.nPes() + " PEs", me, expected, bins.asInts().toArray());
            }
        }
    }

    /** A skewed, PE-dependent distribution: (pe * 5 + i * i) % nbins. */
    static int[] valuesOf(int pe, int count, int nbins) {
        int[] values = new int[count];
        for (int i = 0; i < count; i++) {
            values[i] = (int) ((pe * 5L + (long) i * i) % nbins);
        }
        return values;
    }
}
