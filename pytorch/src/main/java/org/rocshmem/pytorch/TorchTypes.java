package org.rocshmem.pytorch;

import org.bytedeco.pytorch.global.torch.ScalarType;
import org.rocshmem.api.dlpack.DLDataType;
import org.rocshmem.api.dlpack.DLPack;

/** Element sizes of torch dtypes and their DLPack types: one table, both directions. */
final class TorchTypes {
    private TorchTypes() {
    }

    /** Bytes per element; throws for the dtypes symmetric tensors do not take (quantized, sub-byte). */
    static int itemSize(ScalarType dtype) {
        if (dtype == null) {
            throw new IllegalArgumentException("dtype is null");
        }
        return switch (dtype) {
            case Byte, Char, Bool -> 1;
            case Short, Half, BFloat16, UInt16 -> 2;
            case Int, Float, UInt32 -> 4;
            case Long, Double, ComplexFloat, UInt64 -> 8;
            case ComplexDouble -> 16;
            default -> throw new IllegalArgumentException("dtype " + dtype + " is not supported for symmetric tensors"
                    + " (use an integer, floating-point, complex or bool dtype)");
        };
    }

    static DLDataType dlpack(ScalarType dtype) {
        return switch (dtype) {
            case Byte -> DLDataType.UINT8;
            case Char -> DLDataType.INT8;
            case Short -> DLDataType.INT16;
            case Int -> DLDataType.INT32;
            case Long -> DLDataType.INT64;
            case UInt16 -> DLDataType.UINT16;
            case UInt32 -> DLDataType.UINT32;
            case UInt64 -> DLDataType.UINT64;
            case Half -> DLDataType.FLOAT16;
            case Float -> DLDataType.FLOAT32;
            case Double -> DLDataType.FLOAT64;
            case BFloat16 -> DLDataType.BFLOAT16;
            case Bool -> DLDataType.BOOL;
            case ComplexFloat -> new DLDataType(DLPack.kDLComplex, 64, 1);
            case ComplexDouble -> new DLDataType(DLPack.kDLComplex, 128, 1);
            default -> throw new IllegalArgumentException("dtype " + dtype + " has no DLPack type this module maps");
        };
    }

    static ScalarType torch(DLDataType type) {
        if (type.lanes() != 1) {
            throw new IllegalArgumentException("DLPack type " + type + " has " + type.lanes() + " lanes; torch"
                    + " tensors take 1");
        }
        ScalarType result = switch (type.code()) {
            case DLPack.kDLInt -> switch (type.bits()) {
                case 8 -> ScalarType.Char;
                case 16 -> ScalarType.Short;
                case 32 -> ScalarType.Int;
                case 64 -> ScalarType.Long;
                default -> null;
            };
            case DLPack.kDLUInt -> switch (type.bits()) {
                case 8 -> ScalarType.Byte;
                case 16 -> ScalarType.UInt16;
                case 32 -> ScalarType.UInt32;
                case 64 -> ScalarType.UInt64;
                default -> null;
            };
            case DLPack.kDLFloat -> switch (type.bits()) {
                case 16 -> ScalarType.Half;
                case 32 -> ScalarType.Float;
                case 64 -> ScalarType.Double;
                default -> null;
            };
            case DLPack.kDLBfloat -> type.bits() == 16 ? ScalarType.BFloat16 : null;
            case DLPack.kDLBool -> type.bits() == 8 ? ScalarType.Bool : null;
            case DLPack.kDLComplex -> type.bits() == 64 ? ScalarType.ComplexFloat
                    : type.bits() == 128 ? ScalarType.ComplexDouble : null;
            default -> null;
        };
        if (result == null) {
            throw new IllegalArgumentException("DLPack type " + type + " has no torch dtype");
        }
        return result;
    }
}
