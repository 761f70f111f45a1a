package org.rocshmem.api.rccl;

import static org.rocshmem.global.rccl.*;

/** {@code ncclDataType_t}: the element types RCCL reduces and moves. */
public enum DataType {
    INT8(ncclInt8, 1, "ncclInt8", false),
    UINT8(ncclUint8, 1, "ncclUint8", false),
    INT32(ncclInt32, 4, "ncclInt32", false),
    UINT32(ncclUint32, 4, "ncclUint32", false),
    INT64(ncclInt64, 8, "ncclInt64", false),
    UINT64(ncclUint64, 8, "ncclUint64", false),
    /** IEEE binary16 ({@code ncclHalf}). */
    FLOAT16(ncclFloat16, 2, "ncclFloat16", true),
    FLOAT32(ncclFloat32, 4, "ncclFloat32", true),
    FLOAT64(ncclFloat64, 8, "ncclFloat64", true),
    BFLOAT16(ncclBfloat16, 2, "ncclBfloat16", true),
    /** OCP FP8 E4M3 (largest finite 448, no infinities). */
    FLOAT8_E4M3(ncclFloat8e4m3, 1, "ncclFloat8e4m3", true),
    /** OCP FP8 E5M2. */
    FLOAT8_E5M2(ncclFloat8e5m2, 1, "ncclFloat8e5m2", true);

    private final int code;
    private final int size;
    private final String cName;
    private final boolean floating;

    DataType(int code, int size, String cName, boolean floating) {
        this.code = code;
        this.size = size;
        this.cName = cName;
        this.floating = floating;
    }

    /** The {@code ncclDataType_t} value. */
    public int code() {
        return code;
    }

    /** Bytes per element. */
    public int size() {
        return size;
    }

    public String cName() {
        return cName;
    }

    public boolean isFloating() {
        return floating;
    }
}
