package org.rocshmem.samples.kernels;

import org.rocshmem.api.hip.Dim3;
import org.rocshmem.api.hip.HipModule;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricInts;

/**
 * A GPU-initiated ring: the kernel {@code ring} (src/main/hip/kernels/ring.hip) has every work-item put one int
 * into the next PE's inbox with {@code rocshmem_int_p}; the host only launches and checks.
 *
 * <pre>
 * ./samples/run.sh kernels.GpuRing 4
 * </pre>
 */
public final class GpuRing {
    private GpuRing() {
    }

    public static void main(String[] args) {
        int blocks = 4;
        int threads = 64;
        int items = blocks * threads;
        try (Rocshmem shmem = Rocshmem.init();
             HipModule module = HipModule.loadResource("kernels/ring");  // ring.emuco here, ring.hsaco on a GPU
             SymmetricBuffer buffer = shmem.calloc(items, Integer.BYTES);
             HipStream stream = HipStream.create()) {
            shmem.initModule(module);                                   // the kernel calls rocSHMEM
            SymmetricInts inbox = buffer.asInts();
            module.kernel("ring").launch(Dim3.of(blocks), Dim3.of(threads), 0, stream, inbox);
            stream.synchronize();
            shmem.barrierAll();                                         // every PE's kernel has put its values

            int me = shmem.myPe();
            int prev = (me + shmem.nPes() - 1) % shmem.nPes();
            int[] expected = new int[items];
            for (int i = 0; i < items; i++) {
                expected[i] = prev * 1000 + i;
            }
            Verify.equal("inbox from PE " + prev, me, expected, inbox.toArray());
        }
    }
}
