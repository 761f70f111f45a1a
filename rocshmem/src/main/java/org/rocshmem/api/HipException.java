package org.rocshmem.api;

/**
 * A HIP runtime call returned an error. Carries the numeric {@code hipError_t}, its enum name
 * (e.g. {@code hipErrorNoDevice}) and the runtime's description, so logs are readable without
 * looking the code up.
 */
public final class HipException extends RocshmemException {
    private static final long serialVersionUID = 1L;

    private final int code;
    private final String errorName;
    private final String description;

    public HipException(String call, int code, String errorName, String description) {
        super(call + " failed: " + errorName + " (" + code + "): " + description);
        this.code = code;
        this.errorName = errorName;
        this.description = description;
    }

    /** The {@code hipError_t} value. */
    public int code() {
        return code;
    }

    /** The enum name the runtime gives for {@link #code()}, e.g. {@code hipErrorNoDevice}. */
    public String errorName() {
        return errorName;
    }

    /** The runtime's description of {@link #code()}. */
    public String description() {
        return description;
    }
}
