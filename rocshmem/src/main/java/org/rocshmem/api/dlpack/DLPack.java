package org.rocshmem.api.dlpack;

/**
 * The constants of the DLPack exchange format (dlpack.h, version 1.1) that this package writes and reads: the ABI
 * version, device types, data type codes and the flags of the versioned tensor. Values are the specification's; the
 * structs themselves are {@link DLTensor}, {@link DLManagedTensor} and {@link DLManagedTensorVersioned}.
 */
public final class DLPack {
    /** DLPACK_MAJOR_VERSION / DLPACK_MINOR_VERSION written into {@link DLManagedTensorVersioned}. */
    public static final int MAJOR_VERSION = 1;
    public static final int MINOR_VERSION = 1;

    // DLDeviceType
    public static final int kDLCPU = 1;
    public static final int kDLCUDA = 2;
    public static final int kDLCUDAHost = 3;
    public static final int kDLOpenCL = 4;
    public static final int kDLVulkan = 7;
    public static final int kDLMetal = 8;
    public static final int kDLVPI = 9;
    public static final int kDLROCM = 10;
    public static final int kDLROCMHost = 11;
    public static final int kDLExtDev = 12;
    public static final int kDLCUDAManaged = 13;
    public static final int kDLOneAPI = 14;
    public static final int kDLWebGPU = 15;
    public static final int kDLHexagon = 16;
    public static final int kDLMAIA = 17;

    // DLDataTypeCode
    public static final int kDLInt = 0;
    public static final int kDLUInt = 1;
    public static final int kDLFloat = 2;
    public static final int kDLOpaqueHandle = 3;
    public static final int kDLBfloat = 4;
    public static final int kDLComplex = 5;
    public static final int kDLBool = 6;

    // DLManagedTensorVersioned.flags
    public static final long FLAG_BITMASK_READ_ONLY = 1L;
    public static final long FLAG_BITMASK_IS_COPIED = 1L << 1;
    public static final long FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED = 1L << 2;

    private DLPack() {
    }

    /** The specification's name of a device type, for messages ("kDLROCM"); "device type N" for others. */
    public static String deviceTypeName(int deviceType) {
        return switch (deviceType) {
            case kDLCPU -> "kDLCPU";
            case kDLCUDA -> "kDLCUDA";
            case kDLCUDAHost -> "kDLCUDAHost";
            case kDLOpenCL -> "kDLOpenCL";
            case kDLVulkan -> "kDLVulkan";
            case kDLMetal -> "kDLMetal";
            case kDLVPI -> "kDLVPI";
            case kDLROCM -> "kDLROCM";
            case kDLROCMHost -> "kDLROCMHost";
            case kDLExtDev -> "kDLExtDev";
            case kDLCUDAManaged -> "kDLCUDAManaged";
            case kDLOneAPI -> "kDLOneAPI";
            case kDLWebGPU -> "kDLWebGPU";
            case kDLHexagon -> "kDLHexagon";
            case kDLMAIA -> "kDLMAIA";
            default -> "device type " + deviceType;
        };
    }
}
