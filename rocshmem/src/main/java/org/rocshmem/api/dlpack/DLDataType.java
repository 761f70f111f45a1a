package org.rocshmem.api.dlpack;

import org.rocshmem.api.CType;
import org.rocshmem.api.hip.DataType;

/**
 * DLDataType: type code ({@link DLPack#kDLInt}, ...), bits per lane and lanes (1 for the scalars every framework
 * exchanges). Element size in bytes is {@code bits * lanes / 8}.
 */
public record DLDataType(int code, int bits, int lanes) {
    public static final DLDataType INT8 = new DLDataType(DLPack.kDLInt, 8, 1);
    public static final DLDataType INT16 = new DLDataType(DLPack.kDLInt, 16, 1);
    public static final DLDataType INT32 = new DLDataType(DLPack.kDLInt, 32, 1);
    public static final DLDataType INT64 = new DLDataType(DLPack.kDLInt, 64, 1);
    public static final DLDataType UINT8 = new DLDataType(DLPack.kDLUInt, 8, 1);
    public static final DLDataType UINT16 = new DLDataType(DLPack.kDLUInt, 16, 1);
    public static final DLDataType UINT32 = new DLDataType(DLPack.kDLUInt, 32, 1);
    public static final DLDataType UINT64 = new DLDataType(DLPack.kDLUInt, 64, 1);
    public static final DLDataType FLOAT16 = new DLDataType(DLPack.kDLFloat, 16, 1);
    public static final DLDataType FLOAT32 = new DLDataType(DLPack.kDLFloat, 32, 1);
    public static final DLDataType FLOAT64 = new DLDataType(DLPack.kDLFloat, 64, 1);
    public static final DLDataType BFLOAT16 = new DLDataType(DLPack.kDLBfloat, 16, 1);
    public static final DLDataType BOOL = new DLDataType(DLPack.kDLBool, 8, 1);

    public DLDataType {
        if (code < 0 || code > 255 || bits <= 0 || bits > 255 || lanes <= 0 || lanes > 65535) {
            throw new IllegalArgumentException("DLDataType needs code 0..255, bits 1..255 and lanes 1..65535: got code "
                    + code + ", bits " + bits + ", lanes " + lanes);
        }
    }

    /** Bytes of one element; 0 for sub-byte types (which this package does not exchange). */
    public long bytes() {
        return (long) bits * lanes / 8;
    }

    /** The DLPack type of a view's C element type (float/double: kDLFloat, unsigned: kDLUInt, else kDLInt). */
    public static DLDataType of(CType type) {
        int code = type.isFloatingPoint() ? DLPack.kDLFloat : type.isUnsigned() ? DLPack.kDLUInt : DLPack.kDLInt;
        return new DLDataType(code, type.bytes() * 8, 1);
    }

    /** The DLPack type of an RCCL data type (float8 types have no DLPack 1.0 code and are refused). */
    public static DLDataType of(DataType type) {
        return switch (type) {
            case INT8 -> INT8;
            case UINT8 -> UINT8;
            case INT32 -> INT32;
            case UINT32 -> UINT32;
            case INT64 -> INT64;
            case UINT64 -> UINT64;
            case FLOAT16 -> FLOAT16;
            case FLOAT32 -> FLOAT32;
            case FLOAT64 -> FLOAT64;
            case BFLOAT16 -> BFLOAT16;
            default -> throw new IllegalArgumentException("RCCL type " + type + " has no DLPack type this package"
                    + " exports; export the buffer with an explicit DLDataType");
        };
    }
}
