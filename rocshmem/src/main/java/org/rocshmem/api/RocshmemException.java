package org.rocshmem.api;

/**
 * Base of every exception this API throws for a failed native call or a misuse of the API. When the library
 * returned a status code, {@link #status()} carries it, so callers can branch on it without parsing the message.
 */
public class RocshmemException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int status;

    public RocshmemException(String message) {
        this(message, 0);
    }

    /** @param status the non-zero status the library returned */
    public RocshmemException(String message, int status) {
        super(message);
        this.status = status;
    }

    public RocshmemException(String message, Throwable cause) {
        super(message, cause);
        this.status = 0;
    }

    /** The status code the failing rocSHMEM call returned, or 0 when the failure has none (a Java-side check). */
    public int status() {
        return status;
    }
}
