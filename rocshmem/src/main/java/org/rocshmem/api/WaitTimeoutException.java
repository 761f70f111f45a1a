package org.rocshmem.api;

/**
 * A host-side wait with a timeout ({@code waitUntil(index, cmp, value, timeout)}) ran out of time: the message names
 * the view, the element, the condition and the value the element last had.
 */
public final class WaitTimeoutException extends RocshmemException {
    private static final long serialVersionUID = 1L;
    private final long index;

    WaitTimeoutException(String message, long index) {
        super(message);
        this.index = index;
    }

    /** The index of the element that was waited on. */
    public long index() {
        return index;
    }
}
