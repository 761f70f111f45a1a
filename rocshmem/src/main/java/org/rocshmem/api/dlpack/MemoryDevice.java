package org.rocshmem.api.dlpack;

import static org.rocshmem.global.hip.hipGetDevice;
import static org.rocshmem.global.hip.hipMemoryTypeDevice;
import static org.rocshmem.global.hip.hipMemoryTypeHost;
import static org.rocshmem.global.hip.hipMemoryTypeManaged;
import static org.rocshmem.global.hip.hipPointerGetAttributes;

import org.rocshmem.hip.hipPointerAttribute_t;
import org.rocshmem.presets.NativeVariant;

/** The DLPack device of local memory: where it lives, as the native variant that loaded sees it. */
record MemoryDevice(int type, int id) {
    static final MemoryDevice CPU = new MemoryDevice(DLPack.kDLCPU, 0);

    /**
     * Symmetric memory: on the emulator emulated device memory is host memory (kDLCPU); on a GPU it is device memory
     * of the current HIP device (kDLROCM).
     */
    static MemoryDevice ofSymmetric() {
        if (emulator()) {
            return CPU;
        }
        int[] device = new int[1];
        int status = hipGetDevice(device);
        if (status != 0) {
            throw new IllegalStateException("hipGetDevice failed with HIP error " + status
                    + ": cannot name the DLPack device of symmetric memory");
        }
        return new MemoryDevice(DLPack.kDLROCM, device[0]);
    }

    /** Any local memory: kDLCPU on the emulator; on a GPU what hipPointerGetAttributes says it is. */
    static MemoryDevice of(long address) {
        if (emulator()) {
            return CPU;
        }
        try (hipPointerAttribute_t attributes = new hipPointerAttribute_t()) {
            int status = hipPointerGetAttributes(attributes, new DLTensor.RawAddress(address, 1));
            if (status != 0) {
                return CPU; // memory HIP does not know: pageable host memory
            }
            int type = attributes.type();
            if (type == hipMemoryTypeDevice || type == hipMemoryTypeManaged) {
                return new MemoryDevice(DLPack.kDLROCM, attributes.device());
            }
            return type == hipMemoryTypeHost ? new MemoryDevice(DLPack.kDLROCMHost, 0) : CPU;
        }
    }

    /** Whether memory on {@code deviceType} is local memory this native variant's putmem/getmem and kernels take. */
    static boolean usable(int deviceType) {
        if (emulator()) {
            return deviceType == DLPack.kDLCPU;
        }
        return deviceType == DLPack.kDLROCM || deviceType == DLPack.kDLROCMHost || deviceType == DLPack.kDLCPU;
    }

    static boolean emulator() {
        return NativeVariant.loaded() == NativeVariant.EMULATOR;
    }
}
