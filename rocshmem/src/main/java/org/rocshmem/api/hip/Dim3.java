package org.rocshmem.api.hip;

/**
 * The extent of a kernel launch in one, two or three dimensions ({@code dim3}): the grid in blocks, or a block in
 * work-items. Every extent is at least 1; {@code Dim3.of(4)} is {@code (4, 1, 1)}.
 */
public record Dim3(int x, int y, int z) {
    public Dim3 {
        if (x < 1 || y < 1 || z < 1) {
            throw new IllegalArgumentException("every extent of a Dim3 must be at least 1: (" + x + ", " + y + ", " + z
                    + ")");
        }
    }

    public static Dim3 of(int x) {
        return new Dim3(x, 1, 1);
    }

    public static Dim3 of(int x, int y) {
        return new Dim3(x, y, 1);
    }

    public static Dim3 of(int x, int y, int z) {
        return new Dim3(x, y, z);
    }

    /** x * y * z, which HIP needs below 2^32 (and a block below the kernel's maxThreadsPerBlock). */
    public long volume() {
        return (long) x * y * z;
    }

    @Override
    public String toString() {
        return "(" + x + "," + y + "," + z + ")";
    }
}
