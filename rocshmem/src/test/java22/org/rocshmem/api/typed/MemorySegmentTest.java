package org.rocshmem.api.typed;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rocshmem.testsupport.Expect.fails;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.MemorySegments;
import org.rocshmem.api.RegisteredBuffer;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.api.testing.MultiPe;

/**
 * Issue 17 item 6 on JDK 22+: MemorySegments as local memory of putmem/getmem and as a view of this PE's copy.
 * Compiled and run only with a JDK 22+ (the jdk22 profile); values prove what moved between the PEs.
 */
@Tag("emu")
class MemorySegmentTest {

    @Test
    @MultiPe(value = 2, timeoutSeconds = 90, env = "ROCSHMEM_EMU_HOST_ACCESS=1") // MemorySegments.of: host stores
    void bytesMoveThroughMemorySegments() {
        try (Rocshmem shmem = Rocshmem.init();
             SymmetricBuffer buffer = shmem.calloc(8, Long.BYTES);
             Arena arena = Arena.ofConfined()) {
            int me = shmem.myPe();
            int other = 1 - me;
            SymmetricLongs inbox = buffer.asLongs().slice(0, 4);
            MemorySegment source = arena.allocate(JAVA_LONG, 4);
            for (int i = 0; i < 4; i++) {
                source.setAtIndex(JAVA_LONG, i, 100L * me + i);
            }
            MemorySegments.putmem(inbox, other, source);
            shmem.barrierAll();
            MemorySegment mine = MemorySegments.of(inbox);
            assertEquals(32, mine.byteSize());
            assertEquals(100L * other + 3, mine.getAtIndex(JAVA_LONG, 3), "the other PE's putmem, seen in a segment");
            mine.setAtIndex(JAVA_LONG, 0, 7 + me); // a store through the segment is the symmetric copy
            assertEquals(7 + me, inbox.get(0));
            shmem.barrierAll();

            MemorySegment back = arena.allocate(JAVA_LONG, 4);
            MemorySegments.getmem(inbox, other, back);
            assertEquals(7 + other, back.getAtIndex(JAVA_LONG, 0), "getmem into a segment");
            try (RegisteredBuffer registered = MemorySegments.register(shmem, back)) {
                back.setAtIndex(JAVA_LONG, 1, 55 + me);
                inbox.putmem(other, registered);
            }
            shmem.barrierAll();
            assertEquals(55 + other, inbox.get(1), "putmem from a registered segment");

            fails(IllegalArgumentException.class, "must be a native segment",
                    () -> MemorySegments.putmem(inbox, other, MemorySegment.ofArray(new long[4])));
            fails(IndexOutOfBoundsException.class, "32 bytes do not fit the 16 bytes",
                    () -> MemorySegments.getmem(inbox, other, arena.allocate(16)));
            shmem.barrierAll();
        }
    }

    @Test
    @MultiPe(value = 2, timeoutSeconds = 90)
    void aSegmentOfSymmetricMemoryIsRefusedByDefaultAsOnAGpu() {
        try (Rocshmem shmem = Rocshmem.init(); SymmetricBuffer buffer = shmem.calloc(8, Long.BYTES)) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> MemorySegments.of(buffer.asLongs()));
            assertTrue(e.getMessage().contains("ROCSHMEM_EMU_HOST_ACCESS=1"), e.getMessage());
            shmem.barrierAll();
        }
    }
}
