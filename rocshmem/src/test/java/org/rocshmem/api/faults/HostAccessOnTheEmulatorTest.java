package org.rocshmem.api.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.CType;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.testsupport.InitializedPe;
import org.rocshmem.api.testing.MultiPe;

/**
 * The emulator is no more forgiving than a GPU: a ByteBuffer view of symmetric memory (a host load or store of
 * device memory there) is refused by default, on the own buffer and on a peer view, with the way out in the message;
 * the typed views' host copies, which a GPU allows, keep working.
 */
@Tag("emu")
@MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 90)
class HostAccessOnTheEmulatorTest {

    @Test
    void byteBufferViewsAreRefusedAsOnAGpuAndTheHostCopiesWork() {
        Rocshmem shmem = Rocshmem.current();
        int peer = 1 - shmem.myPe();
        try (SymmetricBuffer buffer = shmem.calloc(64, 1)) {
            UnsupportedOperationException own = assertThrows(UnsupportedOperationException.class, buffer::asByteBuffer);
            assertTrue(own.getMessage().startsWith("symmetric memory is GPU memory on a GPU, which the host cannot load"
                    + " or store, and the emulator refuses it too;"), own.getMessage());
            assertTrue(own.getMessage().contains("copyFrom/copyTo (hipMemcpy) or put/get"), own.getMessage());
            assertTrue(own.getMessage().endsWith("or set ROCSHMEM_EMU_HOST_ACCESS=1 in a program meant only for the"
                    + " emulator"), own.getMessage());
            assertThrows(UnsupportedOperationException.class, () -> buffer.asByteBuffer(8, 8));
            assertThrows(UnsupportedOperationException.class, () -> buffer.peer(peer).asByteBuffer());

            SymmetricLongs longs = buffer.asLongs(CType.INT64).slice(0, 4);
            longs.copyFrom(new long[] {7, 8, 9, shmem.myPe()});
            shmem.barrierAll();
            long[] fromPeer = new long[4];
            longs.get(peer, fromPeer);
            assertEquals(peer, fromPeer[3]);
            long[] back = new long[4];
            longs.copyTo(back);
            assertEquals(9, back[2]);
            shmem.barrierAll();
        }
    }
}
