package org.rocshmem.api;

import org.bytedeco.javacpp.Pointer;

/** How many bytes a JavaCPP pointer is known to hold from its position (JavaCPP limit, else capacity). */
final class PointerExtent {
    private PointerExtent() {
    }

    /** Bytes from the position to the limit (or capacity); -1 when the pointer does not know its extent. */
    static long bytes(Pointer p) {
        long elements = p.limit() > 0 ? p.limit() : p.capacity();
        if (elements <= 0) {
            return -1;
        }
        return Math.max(0, elements - p.position()) * Math.max(1, p.sizeof());
    }
}
