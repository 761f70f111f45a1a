package org.rocshmem.api;

import java.nio.ByteBuffer;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.rocshmem.api.hip.DeviceRegion;

/** Local memory of other kinds as the JavaCPP pointers and addresses the native calls take. */
final class LocalMemory {
    private LocalMemory() {
    }

    /** The bytes from position to limit of a direct buffer, as a pointer at the position (heap buffers refused). */
    static Pointer of(ByteBuffer buffer, String what) {
        if (buffer == null) {
            throw new IllegalArgumentException(what + " is null");
        }
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException(what + " must be a direct ByteBuffer (ByteBuffer.allocateDirect): the"
                    + " array of a heap buffer can move while native code uses it; got " + buffer);
        }
        return new BytePointer(buffer.slice()); // the slice starts at the position: address = first byte, position 0
    }

    /** As {@link #of(ByteBuffer, String)} for memory the library writes: a read-only buffer is refused. */
    static Pointer writable(ByteBuffer buffer, String what) {
        Pointer start = of(buffer, what);
        if (buffer.isReadOnly()) {
            throw new IllegalArgumentException(what + " is a read-only ByteBuffer, which rocSHMEM would write into;"
                    + " pass a writable direct buffer");
        }
        return start;
    }

    /** Device memory with a known extent, as a pointer at its first byte holding its size in bytes. */
    static Pointer of(DeviceRegion region) {
        if (region == null) {
            throw new IllegalArgumentException("device region is null");
        }
        long bytes = region.byteSize();
        if (bytes < 0) {
            throw new IllegalArgumentException(region + " has no known length: build it with DeviceBuffer.of(address,"
                    + " elements, type) to register it");
        }
        return new AddressPointer(region.address(), bytes);
    }

    /** A pointer at a fixed address (JavaCPP sets addresses only from inside Pointer subclasses). */
    static final class AddressPointer extends Pointer {
        AddressPointer(long address, long bytes) {
            this.address = address;
            this.capacity = bytes;
            this.limit = bytes;
        }
    }
}
