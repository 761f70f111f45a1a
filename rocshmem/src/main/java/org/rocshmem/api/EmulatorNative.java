package org.rocshmem.api;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Const;
import org.bytedeco.javacpp.annotation.NoException;
import org.bytedeco.javacpp.annotation.Platform;
import org.bytedeco.javacpp.annotation.Properties;
import org.rocshmem.presets.NativeVariant;

/**
 * JavaCPP binding of the CPU emulator's private C API ({@code rocshmem_emu.h}, installed with the emulator). Only
 * the {@code -emu} variant compiles it into a JNI library; use it through {@link Emulator}, which never touches it
 * on a GPU. Hand-written rather than parsed: six declarations, and the real variant has no such header.
 */
@Properties(
    inherit = org.bytedeco.javacpp.presets.javacpp.class,
    value = @Platform(
        value = "linux-x86_64",
        extension = NativeVariant.EMULATOR_EXTENSION,
        include = "rocshmem_emu.h",
        link = "rocshmem_cpu_emu"))
@NoException
final class EmulatorNative {
    static {
        Loader.load();
    }

    private EmulatorNative() {
    }

    static native @Cast("const char*") BytePointer rocshmem_emu_last_init_error();

    static native @Cast("size_t") long rocshmem_emu_max_alignment();

    static native Pointer rocshmem_emu_view(@Const Pointer addr, @Cast("size_t") long bytes);

    static native @Cast("const char*") BytePointer rocshmem_emu_last_error();

    static native void rocshmem_emu_abandon_job();

    static native @Cast("const char*") BytePointer rocshmem_emu_settings();
}
