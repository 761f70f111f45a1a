package org.rocshmem.api;

/** Base of every exception this API throws for a failed native call or a misuse of the API. */
public class RocshmemException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RocshmemException(String message) {
        super(message);
    }

    public RocshmemException(String message, Throwable cause) {
        super(message, cause);
    }
}
