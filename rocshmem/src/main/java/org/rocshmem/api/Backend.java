package org.rocshmem.api;

import org.rocshmem.presets.NativeVariant;

/**
 * Which rocSHMEM this process runs on.
 *
 * @param name     what {@code rocshmem_info_get_name} reports: ROCSHMEM_VENDOR_STRING, e.g.
 *                 "rocSHMEM_v3.8.0_CPU-emulator" on the emulator
 * @param variant  the native variant that actually loaded ({@link NativeVariant#loaded()}), read from the loaded
 *                 library's path
 */
public record Backend(String name, NativeVariant variant) {

    /** The CPU emulation backend: symmetric memory is plain host memory there. */
    public boolean emulator() {
        return variant == NativeVariant.EMULATOR;
    }

    @Override
    public String toString() {
        return name + " [" + variant.platform() + ", " + variant.description() + "]";
    }
}
