package org.rocshmem.api.rccl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.rocshmem.testsupport.Expect.fails;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceMemory;

/** Issue 17 item 7: the RCCL collectives take their count from the buffers; partial buffers keep the count form. */
@Tag("emu")
class InferredCountTest {

    @Test
    @MultiPe(value = 2, timeoutSeconds = 120)
    void countsComeFromTheBuffers() {
        try (Communicator comm = Communicator.init();
             HipStream stream = HipStream.create();
             DeviceMemory four = DeviceMemory.allocate(4, DataType.FLOAT64);
             DeviceMemory sum = DeviceMemory.allocate(4, DataType.FLOAT64);
             DeviceMemory eight = DeviceMemory.allocate(8, DataType.FLOAT64);
             DeviceMemory two = DeviceMemory.allocate(2, DataType.FLOAT64)) {
            int me = comm.rank();
            four.copyFromHost(me + 1, 2, 3, 10 * (me + 1));
            comm.allReduce(four.buffer(), sum.buffer(), RedOp.SUM, stream);
            comm.allGather(four.buffer(), eight.buffer(), stream);
            comm.reduceScatter(four.buffer(), two.buffer(), RedOp.MAX, stream);
            stream.synchronize();
            assertArrayEquals(new double[] {3, 4, 6, 30}, sum.copyToHost());
            assertArrayEquals(new double[] {1, 2, 3, 10, 2, 2, 3, 20}, eight.copyToHost());
            assertArrayEquals(me == 0 ? new double[] {2, 2} : new double[] {3, 20}, two.copyToHost());
            comm.broadcast(four.buffer(), sum.buffer(), 1, stream);
            stream.synchronize();
            assertArrayEquals(new double[] {2, 2, 3, 20}, sum.copyToHost());
            fails(IllegalArgumentException.class, "the send buffer has 4 elements, the receive buffer 8; use the form"
                    + " with a count for partial buffers", () -> comm.allReduce(four.buffer(), eight.buffer(),
                    RedOp.SUM, stream));
            fails(IllegalArgumentException.class, "the receive buffer must hold 2 blocks of 4 elements (8), it has 4",
                    () -> comm.allGather(four.buffer(), sum.buffer(), stream));
        }
    }
}
