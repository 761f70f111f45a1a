package org.rocshmem.api;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;

/**
 * The CPU emulator's private C API ({@code rocshmem_emu.h}, bound by {@link EmulatorNative}). Every method is safe
 * to call on any backend: on a GPU, where these functions do not exist, it answers "unknown".
 */
final class Emulator {
    private Emulator() {
    }

    /** Why the last init failed, as the emulator recorded it; "" when unknown or not the emulator. */
    static String lastInitError(Backend backend) {
        if (!backend.emulator()) {
            return "";
        }
        load();
        return text(EmulatorNative.rocshmem_emu_last_init_error());
    }

    /** The largest alignment rocshmem_align accepts; 0 when unknown (real rocSHMEM does not say). */
    static long maxAlignment(Backend backend) {
        if (!backend.emulator()) {
            return 0;
        }
        load();
        return EmulatorNative.rocshmem_emu_max_alignment();
    }

    /**
     * A raw view of {@code bytes} symmetric bytes at {@code address}: on the emulator the same memory at an address
     * of its own that stops reaching the block when it is freed (rocshmem_emu_view); elsewhere {@code address}.
     */
    static Pointer view(Backend backend, Pointer address, long bytes) {
        if (!backend.emulator()) {
            return address;
        }
        load();
        Pointer view = EmulatorNative.rocshmem_emu_view(address, bytes);
        if (view == null || view.isNull()) {
            throw new RocshmemException("cannot create a raw view of " + bytes + " bytes at 0x"
                    + Long.toHexString(address.address()) + ": " + text(EmulatorNative.rocshmem_emu_last_error()));
        }
        return view;
    }

    /**
     * Ends the job for the other PEs (they stop at their next wait or collective, naming this PE) without ending
     * this process; marks this PE as gone. No-op on a GPU and when not initialized.
     */
    static void abandonJob(Backend backend) {
        if (backend.emulator()) {
            load();
            EmulatorNative.rocshmem_emu_abandon_job();
        }
    }

    /**
     * The emulator's effective settings, one {@code NAME=value} line each (rocshmem_emu_settings), or "" when not
     * the emulator.
     */
    static String settings(Backend backend) {
        if (!backend.emulator()) {
            return "";
        }
        load();
        return text(EmulatorNative.rocshmem_emu_settings());
    }

    private static void load() {
        Loader.load(EmulatorNative.class);
    }

    private static String text(BytePointer p) {
        return p == null || p.isNull() ? "" : p.getString();
    }
}
