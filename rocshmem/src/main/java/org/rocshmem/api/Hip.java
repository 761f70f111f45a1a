package org.rocshmem.api;

import static org.rocshmem.global.hip.hipGetErrorName;
import static org.rocshmem.global.hip.hipGetErrorString;
import static org.rocshmem.global.hip.hipSuccess;

import org.bytedeco.javacpp.BytePointer;

/** Turns HIP status codes into exceptions. */
public final class Hip {
    private Hip() {
    }

    /**
     * Returns normally when {@code status} is {@code hipSuccess}; otherwise throws a
     * {@link HipException} naming {@code call}, the code, its HIP name and description.
     */
    public static void check(int status, String call) {
        if (status != hipSuccess) {
            throw new HipException(call, status, text(hipGetErrorName(status)), text(hipGetErrorString(status)));
        }
    }

    private static String text(BytePointer p) {
        return p == null || p.isNull() ? "(no text)" : p.getString();
    }
}
