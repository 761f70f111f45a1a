package org.rocshmem.api;

/** Argument checks shared by the API classes; messages carry the offending numbers. */
final class Checks {
    private Checks() {
    }

    /** {@code [offset, offset + length)} must lie inside {@code [0, size)}. */
    static void range(String what, long offset, long length, long size) {
        if (offset < 0 || length < 0 || offset > size || length > size - offset) {
            throw new IndexOutOfBoundsException(what + ": range [" + offset + ", " + offset + " + " + length
                    + ") is outside [0, " + size + ")");
        }
    }

    static void pe(int pe, int nPes) {
        if (pe < 0 || pe >= nPes) {
            throw new IndexOutOfBoundsException("PE " + pe + " is outside [0, n_pes=" + nPes + ")");
        }
    }

    static void positive(String what, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(what + " must be > 0, got " + value);
        }
    }

    static IndexOutOfBoundsException peOutOfRange(int pe, int nPes) {
        return new IndexOutOfBoundsException("PE " + pe + " is outside [0, n_pes=" + nPes + ")");
    }

    static IndexOutOfBoundsException indexOutOfRange(long index, long length, Object view) {
        return new IndexOutOfBoundsException("index " + index + " is outside [0, " + length + ") of " + view);
    }

    static IndexOutOfBoundsException arrayRange(String what, int arrayLength, int offset, long count) {
        return new IndexOutOfBoundsException(what + ": " + count + " elements from offset " + offset
                + " do not fit an array of " + arrayLength);
    }

    static IllegalArgumentException arrayLength(String what, int arrayLength, long viewLength, Object view) {
        return new IllegalArgumentException(what + " has " + arrayLength + " elements but " + view + " has "
                + viewLength + " (use the form with an offset, or slice the view)");
    }

    /** The address of a local JavaCPP pointer that must hold {@code bytes} bytes from its position on. */
    static long localPointer(String what, org.bytedeco.javacpp.Pointer p, long bytes) {
        if (p == null || p.isNull()) {
            throw new IllegalArgumentException(what + " is a null pointer");
        }
        long elements = p.limit() > 0 ? p.limit() : p.capacity();
        if (elements > 0) {
            range(what, 0, bytes, (elements - p.position()) * p.sizeof());
        }
        return p.address() + p.position() * p.sizeof();
    }

    static boolean isPowerOfTwo(long value) {
        return value > 0 && (value & (value - 1)) == 0;
    }
}
