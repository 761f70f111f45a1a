package org.rocshmem.api.rccl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.rocshmem.global.rccl.RCCL_ALLREDUCE_WITH_BIAS;
import static org.rocshmem.global.rccl.RCCL_ALLTOALLV;
import static org.rocshmem.global.rccl.RCCL_GATHER_SCATTER;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceMemory;

/** The collectives only RCCL has: AllReduceWithBias, AllToAllv, Gather and Scatter. */
@Tag("emu")
class RcclExtensionsTest {

    @Test
    @MultiPe(value = 2, lifecycle = RcclPe.class, timeoutSeconds = 90)
    void rcclOnlyCollectives() {
        assertEquals(1, RCCL_ALLREDUCE_WITH_BIAS);
        assertEquals(1, RCCL_ALLTOALLV);
        assertEquals(1, RCCL_GATHER_SCATTER);
        Communicator comm = RcclPe.comm();
        HipStream stream = RcclPe.stream();
        int me = comm.rank();

        // AllReduceWithBias: the reduced result, then this rank's own bias.
        try (DeviceMemory send = DeviceMemory.allocate(2, DataType.INT32);
             DeviceMemory recv = DeviceMemory.allocate(2, DataType.INT32);
             DeviceMemory bias = DeviceMemory.allocate(2, DataType.INT32)) {
            send.copyFromHost(me, 5);
            bias.copyFromHost(me + 1, 10);
            comm.allReduceWithBias(send.buffer(), recv.buffer(), 2, RedOp.SUM, bias.buffer(), stream);
            stream.synchronize();
            assertArrayEquals(new double[] {0 + 1 + me + 1, 10 + 10}, recv.copyToHost());
            comm.allReduceWithBias(send.buffer(), recv.buffer(), 2, RedOp.MAX, bias.buffer(), stream);
            stream.synchronize();
            assertArrayEquals(new double[] {Math.max(1, me + 1), 10}, recv.copyToHost());
            comm.allReduceWithBias(send.buffer(), recv.buffer(), 2, RedOp.SUM, null, stream);
            stream.synchronize();
            assertArrayEquals(new double[] {1, 10}, recv.copyToHost());
        }

        // AllToAllv in place: rank 0 sends 1 element to itself and 3 to rank 1; rank 1 sends 2 to rank 0 and
        // 1 to itself.
        long[][] counts = {{1, 3}, {2, 1}};
        long[] sendCounts = counts[me];
        long[] recvCounts = {counts[0][me], counts[1][me]};
        long[] sendDispls = {0, sendCounts[0]};
        long[] recvDispls = {0, recvCounts[0]};
        try (DeviceMemory both = DeviceMemory.allocate(4, DataType.FLOAT64)) {
            both.copyFromHost(10 * me + 1, 10 * me + 2, 10 * me + 3, 10 * me + 4);
            comm.allToAllv(both.buffer(), sendCounts, sendDispls, both.buffer(), recvCounts, recvDispls, stream);
            stream.synchronize();
            double[] got = both.copyToHost();
            double[] expected = me == 0 ? new double[] {1, 11, 12, 0} : new double[] {2, 3, 4, 13};
            for (int i = 0; i < recvCounts[0] + recvCounts[1]; i++) {
                assertEquals(expected[i], got[i], "allToAllv element " + i);
            }
        }

        // Gather to rank 1, scatter from rank 0.
        try (DeviceMemory mine = DeviceMemory.allocate(2, DataType.UINT8);
             DeviceMemory all = DeviceMemory.allocate(4, DataType.UINT8)) {
            mine.copyFromHost(me + 1, me + 3);
            comm.gather(mine.buffer(), me == 1 ? all.buffer() : null, 2, 1, stream);
            stream.synchronize();
            if (me == 1) {
                assertArrayEquals(new double[] {1, 3, 2, 4}, all.copyToHost());
            }
            all.copyFromHost(7, 8, 9, 200);
            comm.scatter(me == 0 ? all.buffer() : null, mine.buffer(), 2, 0, stream);
            stream.synchronize();
            assertArrayEquals(me == 0 ? new double[] {7, 8} : new double[] {9, 200}, mine.copyToHost());
        }
    }
}
