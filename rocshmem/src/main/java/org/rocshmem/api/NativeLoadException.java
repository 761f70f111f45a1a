package org.rocshmem.api;

/**
 * The native libraries could not be loaded. The message is one paragraph naming the cause and the fix; the
 * linker's own error stays available as the cause.
 */
public class NativeLoadException extends RocshmemException {
    private static final long serialVersionUID = 1L;

    public NativeLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
