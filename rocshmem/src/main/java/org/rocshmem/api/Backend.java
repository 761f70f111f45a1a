package org.rocshmem.api;

/**
 * Which rocSHMEM this process runs on.
 *
 * @param name     what {@code rocshmem_info_get_name} reports (e.g. "rocSHMEM CPU emulator 3.8.0")
 * @param variant  the loaded JavaCPP native variant, e.g. {@code linux-x86_64-emu}
 * @param emulator true on the CPU emulation backend (symmetric memory is plain host memory there)
 */
public record Backend(String name, String variant, boolean emulator) {
    static final String EXTENSION_PROPERTY = "org.bytedeco.javacpp.platform.extension";

    /** True when the JVM was told to load the emulator variant; decidable without loading natives. */
    static boolean emulatorVariantSelected() {
        return System.getProperty(EXTENSION_PROPERTY, "").endsWith("-emu");
    }

    @Override
    public String toString() {
        return name + " [" + variant + (emulator ? ", CPU emulation" : ", AMD GPU") + "]";
    }
}
