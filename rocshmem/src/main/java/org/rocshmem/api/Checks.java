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

    static boolean isPowerOfTwo(long value) {
        return value > 0 && (value & (value - 1)) == 0;
    }
}
