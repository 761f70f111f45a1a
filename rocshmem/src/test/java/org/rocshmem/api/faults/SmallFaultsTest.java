package org.rocshmem.api.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.IntPointer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.RegisteredBuffer;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.global.rocshmem;
import org.rocshmem.testsupport.InitializedPe;

/** Small misuses (oversized registration, excessive alignment, stale raw views), each with the clear outcome it has. */
@Tag("emu")
// ByteBuffer views of symmetric memory (refused by default, as on a GPU: HostAccessOnTheEmulatorTest) are opted into.
@MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 90, env = "ROCSHMEM_EMU_HOST_ACCESS=1")
class SmallFaultsTest {

    @Test
    void registerRefusesMoreBytesThanThePointerHolds() {
        Rocshmem shmem = Rocshmem.current();
        try (BytePointer memory = new BytePointer(64)) {
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                    () -> shmem.register(memory, 65));
            assertTrue(e.getMessage().contains("65 bytes exceed the 64 bytes"), e.getMessage());
            memory.position(16);
            assertThrows(IndexOutOfBoundsException.class, () -> shmem.register(memory, 49));
            try (RegisteredBuffer registered = shmem.register(memory, 48)) {
                assertEquals(48, registered.byteSize());
            }
        }
    }

    @Test
    void alignAboveTheLargestAlignmentSaysSoInsteadOfBlamingTheHeap() {
        Rocshmem shmem = Rocshmem.current();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> shmem.align(1L << 31, 64));
        assertTrue(e.getMessage().contains("alignment 2147483648 is larger than the largest alignment")
                && e.getMessage().contains("(1073741824 bytes)"), e.getMessage());
        try (SymmetricBuffer aligned = shmem.align(1L << 20, 64)) {
            assertEquals(0, aligned.address() % (1L << 20));
        }
    }

    @Test
    void theBackendNameIsTheVendorString() {
        String vendor = rocshmem.ROCSHMEM_VENDOR_STRING().getString();
        assertTrue(vendor.startsWith("rocSHMEM_v"), vendor);
        assertEquals(vendor, Rocshmem.current().backend().name());
    }

    /** After close() no raw view, nor a copy of one, reaches the block's next owner. */
    @Test
    void rawViewsDieWithTheirBuffer() {
        Rocshmem shmem = Rocshmem.current();
        int peer = 1 - shmem.myPe();
        SymmetricBuffer first = shmem.calloc(1024, 1);
        long firstAddress = first.address();
        ByteBuffer view = first.asByteBuffer();
        ByteBuffer viewCopy = view.duplicate();
        IntPointer ints = first.asIntPointer();
        IntPointer intsCopy = new IntPointer(ints); // a plain copy of the address: not tracked by anyone
        ByteBuffer peerView = first.peer(peer).asByteBuffer();
        view.put(0, (byte) (10 + shmem.myPe()));
        assertEquals(10 + shmem.myPe(), ints.get(0) & 0xff, "the views alias the block");
        shmem.barrierAll();
        assertEquals(10 + peer, peerView.get(0), "a peer view shows the peer's copy");
        shmem.barrierAll();

        first.close();
        assertThrows(IndexOutOfBoundsException.class, () -> view.get(0), "a ByteBuffer view of a closed buffer");
        assertThrows(IndexOutOfBoundsException.class, () -> peerView.put(0, (byte) 1), "a peer view of a closed buffer");
        assertTrue(ints.isNull(), "a pointer view of a closed buffer is null");
        assertThrows(NullPointerException.class, () -> ints.get(0));

        SymmetricBuffer second = shmem.calloc(1024, 1);
        assertEquals(firstAddress, second.address(), "the heap reuses the offset (precondition)");
        viewCopy.put(1, (byte) 42);   // stale copies write into scratch memory...
        intsCopy.put(2, 4242);
        shmem.barrierAll();
        ByteBuffer fresh = second.asByteBuffer();
        for (int i = 0; i < 16; i++) {
            assertEquals(0, fresh.get(i), "byte " + i + " of the next allocation was written through a stale view");
        }
        assertNotEquals(firstAddress, second.asBytePointer().address(), "views live at addresses of their own");
        shmem.barrierAll();
        second.close();
        assertFalse(fresh.hasRemaining());
    }
}
