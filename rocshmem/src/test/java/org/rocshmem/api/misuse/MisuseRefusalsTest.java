package org.rocshmem.api.misuse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rocshmem.testsupport.Expect.fails;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.RegisteredBuffer;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.RocshmemException;
import org.rocshmem.api.RocshmemStateException;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.api.Team;
import org.rocshmem.api.rccl.Communicator;
import org.rocshmem.api.testing.MultiPe;

/**
 * Issue 25 item 8, the typed API's part: a read-only ByteBuffer is never a destination, a closed RCCL communicator
 * answers no query, and a split refused for the team pool names ROCSHMEM_MAX_NUM_TEAMS in the exception.
 */
@Tag("emu")
class MisuseRefusalsTest {

    @Test
    @MultiPe(value = 2, timeoutSeconds = 90)
    void readOnlyBuffersAreNeverDestinations() {
        try (Rocshmem shmem = Rocshmem.init();
             SymmetricBuffer buffer = shmem.calloc(4, Long.BYTES)) {
            int other = 1 - shmem.myPe();
            SymmetricLongs longs = buffer.asLongs();
            longs.copyFrom(new long[] {7, 7, 7, 7});
            shmem.barrierAll();
            ByteBuffer direct = ByteBuffer.allocateDirect(4 * Long.BYTES).order(ByteOrder.nativeOrder());
            for (int i = 0; i < 4; i++) {
                direct.putLong(i * Long.BYTES, 5);
            }
            ByteBuffer readOnly = direct.asReadOnlyBuffer();
            fails(IllegalArgumentException.class, "getmem destination is a read-only ByteBuffer",
                    () -> longs.getmem(other, readOnly));
            try (RegisteredBuffer registered = shmem.register(readOnly)) {
                fails(IllegalArgumentException.class, "getmem destination: this RegisteredBuffer registers a"
                        + " read-only ByteBuffer", () -> longs.getmem(other, registered));
                assertEquals(5L, direct.getLong(0), "nothing was written into the read-only buffer");
                longs.putmem(other, registered); // a source may be read-only
                shmem.barrierAll();
            }
            long[] arrived = new long[4];
            longs.copyTo(arrived);
            assertArrayEquals(new long[] {5, 5, 5, 5}, arrived, "the peer's read-only source");
            direct.putLong(0, 0);
            longs.getmem(other, direct); // the writable buffer behind it is a destination
            assertEquals(5L, direct.getLong(0));
            shmem.barrierAll();
        }
    }

    @Test
    @MultiPe(value = 2, timeoutSeconds = 90)
    void aClosedCommunicatorAnswersNothing() {
        Communicator comm = Communicator.init();
        assertEquals(2, comm.size()); // cached before close: must not be answered after it
        comm.rank();
        comm.device();
        comm.close();
        fails(IllegalStateException.class, "communicator was closed", comm::rank);
        fails(IllegalStateException.class, "communicator was closed", comm::size);
        fails(IllegalStateException.class, "communicator was closed", comm::device);
        fails(IllegalStateException.class, "communicator was closed", comm::asyncError);
        fails(IllegalStateException.class, "communicator was closed", comm::handle);
    }

    @Test
    @MultiPe(value = 2, timeoutSeconds = 90, env = "ROCSHMEM_MAX_NUM_TEAMS=4")
    void aSplitPastTheTeamPoolNamesTheSetting() {
        try (Rocshmem shmem = Rocshmem.init();
             Team first = shmem.world().splitStrided(0, 1, 2);
             Team second = shmem.world().splitStrided(0, 1, 2)) {
            assertTrue(first.isValid() && second.isValid());
            RocshmemException refused = org.junit.jupiter.api.Assertions.assertThrows(RocshmemException.class,
                    () -> shmem.world().splitStrided(0, 1, 2));
            assertTrue(refused.getMessage().contains("this PE belongs to 2 split team(s), and"
                    + " ROCSHMEM_MAX_NUM_TEAMS=4 allows 2"), refused.getMessage());
            assertTrue(refused.getMessage().contains("set ROCSHMEM_MAX_NUM_TEAMS to 5 or more"), refused.getMessage());
        }
    }
}
