package org.rocshmem.api.rccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceMemory;

@Tag("emu")
class SplitShrinkTest {

    @Test
    @MultiPe(value = 4, lifecycle = RcclPe.class, timeoutSeconds = 120)
    void splitByColorOrdersByKeyAndShrinkDropsARank() {
        Communicator comm = RcclPe.comm();
        HipStream stream = RcclPe.stream();
        int me = comm.rank();

        // Even and odd ranks, ordered by descending key: the order inside each color is reversed.
        Optional<Communicator> half = comm.split(me % 2, -me);
        assertTrue(half.isPresent());
        try (Communicator h = half.get()) {
            assertEquals(2, h.size());
            assertEquals(me < 2 ? 1 : 0, h.rank());
            assertEquals(me % 2 == 0 ? 1.0 + 4.0 : 2.0 + 8.0, allReduce(h, stream, 1 << me, RedOp.SUM));
        }

        // NO_COLOR takes part in the split and gets no communicator.
        Optional<Communicator> some = comm.split(me == 3 ? Communicator.NO_COLOR : 0, me);
        assertEquals(me != 3, some.isPresent());
        some.ifPresent(c -> {
            assertEquals(3, c.size());
            assertEquals(me, c.rank());
            c.close();
        });
        assertThrows(IllegalArgumentException.class, () -> comm.split(-5, 0));

        // Shrink: rank 3 is excluded and does not call; the others keep working without it.
        if (me != 3) {
            assertThrows(IllegalArgumentException.class, () -> comm.shrink(false, me));
            try (Communicator survivors = comm.shrink(false, 3)) {
                assertEquals(3, survivors.size());
                assertEquals(me, survivors.rank());
                assertEquals(4.0, allReduce(survivors, stream, 1 << me, RedOp.MAX));
            }
        }
        // The parent is untouched by both: it still reduces over all four ranks.
        assertEquals(15.0, allReduce(comm, stream, 1 << me, RedOp.SUM));
    }

    private static double allReduce(Communicator c, HipStream stream, double value, RedOp op) {
        try (DeviceMemory m = DeviceMemory.allocate(1, DataType.FLOAT64)) {
            m.copyFromHost(value);
            c.allReduce(m.buffer(), m.buffer(), 1, op, stream);
            stream.synchronize();
            return m.copyToHost()[0];
        }
    }
}
