package org.rocshmem.api;

/**
 * The API was used in the wrong lifecycle state: before {@code Rocshmem.init...}, after finalize, twice, or on
 * a buffer, stream or team that was already closed. Thrown by Java-side checks before any native call, so a
 * misuse never reaches rocSHMEM (which would print a line and silently do nothing, or crash).
 */
public class RocshmemStateException extends RocshmemException {
    private static final long serialVersionUID = 1L;

    public RocshmemStateException(String message) {
        super(message);
    }

    static RocshmemStateException notInitialized() {
        return new RocshmemStateException("rocSHMEM is not initialized: call Rocshmem.init() first");
    }

    static RocshmemStateException finalized() {
        return new RocshmemStateException("rocSHMEM was finalized: no rocSHMEM call is possible after Rocshmem.close()"
                + " (rocSHMEM cannot be initialized twice in one process)");
    }
}
