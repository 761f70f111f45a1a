package org.rocshmem.samples.kernels;

import org.rocshmem.api.hip.Dim3;
import org.rocshmem.api.hip.HipModule;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;

/**
 * A device-side allreduce: one work-group per PE runs {@code rocshmem_ctx_int_sum_reduce_wg} on
 * ROCSHMEM_TEAM_WORLD (src/main/hip/kernels/allreduce.hip); every PE ends with the element-wise sum.
 *
 * <pre>
 * ./samples/run.sh kernels.DeviceAllReduce 4
 * </pre>
 */
public final class DeviceAllReduce {
    private DeviceAllReduce() {
    }

    public static void main(String[] args) {
        int count = 1000;
        try (Rocshmem shmem = Rocshmem.init();
             HipModule module = HipModule.loadResource("kernels/allreduce");
             SymmetricBuffer dest = shmem.calloc(count, Integer.BYTES);
             SymmetricBuffer source = shmem.calloc(count, Integer.BYTES);
             HipStream stream = HipStream.create()) {
            shmem.initModule(module);
            int me = shmem.myPe();
            int n = shmem.nPes();
            int[] mine = new int[count];
            for (int i = 0; i < count; i++) {
                mine[i] = me * 10 + i;
            }
            source.asInts().copyFrom(mine);
            shmem.barrierAll();
            module.kernel("allreduce").launch(Dim3.of(1), Dim3.of(256), 0, stream, dest.asInts(), source.asInts(),
                    count);
            stream.synchronize();
            int[] expected = new int[count];
            for (int i = 0; i < count; i++) {
                expected[i] = 10 * n * (n - 1) / 2 + n * i;
            }
            Verify.equal("sum over " + n + " PEs", me, expected, dest.asInts().toArray());
        }
    }
}
