package org.rocshmem.api;

import static org.rocshmem.global.rocshmem.ROCSHMEM_SIGNAL_ADD;
import static org.rocshmem.global.rocshmem.ROCSHMEM_SIGNAL_SET;

/** How a put-with-signal updates the remote signal word ({@code ROCSHMEM_SIGNAL_*}). */
public enum SignalOp {
    /** The signal word becomes the value. */
    SET(ROCSHMEM_SIGNAL_SET),
    /** The value is added to the signal word, atomically. */
    ADD(ROCSHMEM_SIGNAL_ADD);

    final int code;

    SignalOp(int code) {
        this.code = code;
    }
}
