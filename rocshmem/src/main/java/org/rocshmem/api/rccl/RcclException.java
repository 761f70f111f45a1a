package org.rocshmem.api.rccl;

/**
 * An RCCL call failed. Carries the {@code ncclResult_t} (as {@link RcclResult} and as the raw code), RCCL's
 * description of it ({@code ncclGetErrorString}) and the last-error text ({@code ncclGetLastError}), which names
 * the argument or the peer at fault.
 */
public final class RcclException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int code;
    private final transient RcclResult result;
    private final String lastError;

    RcclException(String call, int code, String description, String lastError) {
        super(call + " failed: " + name(code) + " (" + code + "): " + description
                + (lastError == null || lastError.isEmpty() ? "" : "; last error: " + lastError));
        this.code = code;
        this.result = RcclResult.ofCode(code);
        this.lastError = lastError == null ? "" : lastError;
    }

    /** For failures that happen before RCCL is reached (the library cannot be loaded). */
    RcclException(String message, Throwable cause) {
        super(message, cause);
        this.code = -1;
        this.result = null;
        this.lastError = "";
    }

    /** The result, or null when the library could not even be loaded or returned an unknown code. */
    public RcclResult result() {
        return result;
    }

    /** The raw {@code ncclResult_t} value (-1 when no RCCL call was made). */
    public int code() {
        return code;
    }

    /** The C name of the result, e.g. {@code ncclRemoteError}. */
    public String resultName() {
        return name(code);
    }

    /** {@code ncclGetLastError} at the time of the failure (may be empty). */
    public String lastError() {
        return lastError;
    }

    private static String name(int code) {
        RcclResult r = RcclResult.ofCode(code);
        return r == null ? "unknown ncclResult_t" : r.cName();
    }
}
