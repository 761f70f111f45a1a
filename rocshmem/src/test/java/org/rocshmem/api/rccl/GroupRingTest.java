package org.rocshmem.api.rccl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceMemory;

/** A ring of grouped sends and receives, each far larger than the emulator's per-peer buffering. */
@Tag("emu")
class GroupRingTest {

    @Test
    @MultiPe(value = 3, lifecycle = RcclPe.class, timeoutSeconds = 120)
    void groupedRingOfLargeMessagesCannotDeadlock() {
        Communicator comm = RcclPe.comm();
        HipStream stream = RcclPe.stream();
        int me = comm.rank();
        int n = comm.size();
        int next = (me + 1) % n;
        int previous = (me + n - 1) % n;
        int count = 1 << 20;  // 4 MiB of INT32: sixteen times a channel's ring
        try (DeviceMemory out = DeviceMemory.allocate(count, DataType.INT32);
             DeviceMemory in = DeviceMemory.allocate(count, DataType.INT32);
             DeviceMemory back = DeviceMemory.allocate(count, DataType.INT32)) {
            out.copyFromHost(stamp(me, count));
            // Every rank posts its receive first: only a group lets the pair progress together.
            try (Group outer = Rccl.group()) {
                comm.recv(in.buffer(), count, previous, stream);
                try (Group inner = Rccl.group()) {  // groups nest; the outermost close starts the work
                    comm.send(out.buffer(), count, next, stream);
                }
                // ... and the opposite direction in the same fused operation.
                comm.send(out.buffer(), count, previous, stream);
                comm.recv(back.buffer(), count, next, stream);
            }
            stream.synchronize();
            assertArrayEquals(stamp(previous, count), in.copyToHost(), "from the previous rank");
            assertArrayEquals(stamp(next, count), back.copyToHost(), "from the next rank");
        }
        assertEquals(RcclResult.SUCCESS, comm.asyncError());
    }

    private static double[] stamp(int rank, int count) {
        double[] values = new double[count];
        for (int i = 0; i < count; i++) {
            values[i] = (rank << 24) | (i & 0xffffff);
        }
        return values;
    }
}
