package org.rocshmem.api.rccl;

import static org.rocshmem.global.rccl.*;

/** {@code ncclResult_t}: what an RCCL call returned. */
public enum RcclResult {
    SUCCESS(ncclSuccess, "ncclSuccess"),
    UNHANDLED_CUDA_ERROR(ncclUnhandledCudaError, "ncclUnhandledCudaError"),
    SYSTEM_ERROR(ncclSystemError, "ncclSystemError"),
    INTERNAL_ERROR(ncclInternalError, "ncclInternalError"),
    INVALID_ARGUMENT(ncclInvalidArgument, "ncclInvalidArgument"),
    INVALID_USAGE(ncclInvalidUsage, "ncclInvalidUsage"),
    REMOTE_ERROR(ncclRemoteError, "ncclRemoteError"),
    IN_PROGRESS(ncclInProgress, "ncclInProgress");

    private static final RcclResult[] BY_CODE = values();

    private final int code;
    private final String cName;

    RcclResult(int code, String cName) {
        this.code = code;
        this.cName = cName;
    }

    /** The {@code ncclResult_t} value. */
    public int code() {
        return code;
    }

    /** The C enumerator, e.g. {@code ncclInvalidArgument}. */
    public String cName() {
        return cName;
    }

    /** The result for {@code code}, or null for a value outside {@code ncclResult_t}. */
    public static RcclResult ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
