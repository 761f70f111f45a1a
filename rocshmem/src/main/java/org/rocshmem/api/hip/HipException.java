package org.rocshmem.api.hip;

import static org.rocshmem.global.hip.hipGetErrorName;
import static org.rocshmem.global.hip.hipGetErrorString;
import static org.rocshmem.global.hip.hipSuccess;

import org.bytedeco.javacpp.BytePointer;

/**
 * A HIP runtime call returned an error. Carries the numeric {@code hipError_t}, its enum name
 * (e.g. {@code hipErrorNoDevice}) and the runtime's description, so logs are readable without
 * looking the code up.
 */
public final class HipException extends RuntimeException {
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

    /**
     * Returns normally when {@code status} is {@code hipSuccess}; otherwise throws a HipException naming
     * {@code call}, the code, its HIP name and description.
     */
    public static void check(int status, String call) {
        if (status != hipSuccess) {
            throw new HipException(call, status, text(hipGetErrorName(status)), text(hipGetErrorString(status)));
        }
    }

    private static String text(BytePointer p) {
        return p == null || p.isNull() ? "(no text)" : p.getString();
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
