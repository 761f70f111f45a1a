package org.rocshmem.api;

/**
 * Which rocSHMEM this process runs on.
 *
 * @param name     what {@code rocshmem_info_get_name} reports: ROCSHMEM_VENDOR_STRING, e.g.
 *                 "rocSHMEM_v3.8.0_CPU-emulator" on the emulator
 * @param variant  the JavaCPP native variant that actually loaded, e.g. {@code linux-x86_64-emu}, read from the
 *                 loaded library's path
 * @param emulator true on the CPU emulation backend (symmetric memory is plain host memory there)
 */
public record Backend(String name, String variant, boolean emulator) {

    @Override
    public String toString() {
        return name + " [" + variant + (emulator ? ", CPU emulation" : ", AMD GPU") + "]";
    }
}
