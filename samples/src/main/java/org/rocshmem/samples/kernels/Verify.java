package org.rocshmem.samples.kernels;

import java.util.Arrays;

/** The samples' result check: prints the verdict and ends the PE with status 1 on a mismatch. */
final class Verify {
    private Verify() {
    }

    static void equal(String what, int pe, long[] expected, long[] actual) {
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] != actual[i]) {
                System.out.printf("PE %d: %s is WRONG at %d: expected %d, got %d%n", pe, what, i, expected[i],
                        actual[i]);
                System.exit(1);
            }
        }
        System.out.printf("PE %d: %s verified (%d values)%n", pe, what, expected.length);
    }

    static void equal(String what, int pe, int[] expected, int[] actual) {
        equal(what, pe, Arrays.stream(expected).asLongStream().toArray(),
                Arrays.stream(actual).asLongStream().toArray());
    }
}
