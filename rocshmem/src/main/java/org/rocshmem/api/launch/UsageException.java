package org.rocshmem.api.launch;

/** The launcher's command line is invalid; the message says what is wrong. */
public final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
