package org.rocshmem.api;

import static org.rocshmem.global.rocshmem.ROCSHMEM_CMP_EQ;
import static org.rocshmem.global.rocshmem.ROCSHMEM_CMP_GE;
import static org.rocshmem.global.rocshmem.ROCSHMEM_CMP_GT;
import static org.rocshmem.global.rocshmem.ROCSHMEM_CMP_LE;
import static org.rocshmem.global.rocshmem.ROCSHMEM_CMP_LT;
import static org.rocshmem.global.rocshmem.ROCSHMEM_CMP_NE;

/**
 * The comparison of a point-to-point wait or test ({@code ROCSHMEM_CMP_*}): the condition is
 * {@code element <op> value}. For views of unsigned C types the library compares unsigned values.
 */
public enum Compare {
    EQ(ROCSHMEM_CMP_EQ),
    NE(ROCSHMEM_CMP_NE),
    GT(ROCSHMEM_CMP_GT),
    GE(ROCSHMEM_CMP_GE),
    LT(ROCSHMEM_CMP_LT),
    LE(ROCSHMEM_CMP_LE);

    /** The {@code rocshmem_cmps} value passed to the library. */
    final int code;

    Compare(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
