package org.rocshmem.api.rccl;

import static org.rocshmem.global.rccl.*;

import org.rocshmem.api.hip.DataType;

/** The {@code ncclDataType_t} of each device element type. */
final class DataTypes {
    private DataTypes() {
    }

    static int code(DataType type) {
        return switch (type) {
            case INT8 -> ncclInt8;
            case UINT8 -> ncclUint8;
            case INT32 -> ncclInt32;
            case UINT32 -> ncclUint32;
            case INT64 -> ncclInt64;
            case UINT64 -> ncclUint64;
            case FLOAT16 -> ncclFloat16;
            case FLOAT32 -> ncclFloat32;
            case FLOAT64 -> ncclFloat64;
            case BFLOAT16 -> ncclBfloat16;
            case FLOAT8_E4M3 -> ncclFloat8e4m3;
            case FLOAT8_E5M2 -> ncclFloat8e5m2;
        };
    }
}
