package org.rocshmem.api.limits;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.bytedeco.javacpp.BytePointer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceMemory;

/**
 * Sizes that cannot be represented are refused with a message naming the value and the limit, never an
 * {@code ArithmeticException: long overflow}, and copies are checked against the pointers' extents before memcpy
 * could run past them.
 */
@Tag("emu")
class ArithmeticLimitsTest {

    @Test
    void deviceMemoryTooLargeToCountInBytesNamesTheLimit() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DeviceMemory.allocate(Long.MAX_VALUE, DataType.FLOAT32));
        assertTrue(e.getMessage().contains(Long.MAX_VALUE + " elements of 4 bytes exceed the largest size, "
                + Long.MAX_VALUE + " bytes"), e.getMessage());
    }

    @Test
    void streamCopyChecksBothExtentsAndNamesTheNullArgument() {
        try (HipStream stream = HipStream.create();
             BytePointer small = new BytePointer(16);
             BytePointer large = new BytePointer(64)) {
            IndexOutOfBoundsException source = assertThrows(IndexOutOfBoundsException.class,
                    () -> stream.copy(large, small, 32));
            assertTrue(source.getMessage().startsWith("copy source: range [0, 0 + 32) is outside [0, 16)"),
                    source.getMessage());
            IndexOutOfBoundsException destination = assertThrows(IndexOutOfBoundsException.class,
                    () -> stream.copy(small, large, 32));
            assertTrue(destination.getMessage().startsWith("copy destination:"), destination.getMessage());
            IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                    () -> stream.copy(null, large, 8));
            assertTrue(missing.getMessage().equals("copy destination is a null pointer"), missing.getMessage());
            stream.copy(large, small, 16).synchronize();  // within both extents it works
        }
    }
}
