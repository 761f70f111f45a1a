package org.rocshmem.api.rccl;

import static org.rocshmem.global.rccl.ncclGetErrorString;
import static org.rocshmem.global.rccl.ncclGetLastError;
import static org.rocshmem.global.rccl.ncclGetVersion;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Loader;
import org.rocshmem.presets.RcclLibraryLocator;
import org.rocshmem.rccl.ncclComm;

/**
 * Entry point of the typed RCCL API: the library (which one was loaded, its version), unique ids and groups.
 *
 * <pre>{@code
 * try (Communicator comm = Communicator.init();
 *      HipStream stream = HipStream.create()) {
 *     try (Group group = Rccl.group()) {
 *         comm.send(out, count, next, stream);
 *         comm.recv(in, count, previous, stream);
 *     }
 *     stream.synchronize();
 * }
 * }</pre>
 */
public final class Rccl {
    private static volatile boolean loaded;

    private Rccl() {
    }

    /**
     * Loads RCCL and its JNI library once: the real {@code librccl.so.1} (found as {@link RcclLibraryLocator}
     * describes) or, with {@code -Dorg.bytedeco.javacpp.platform.extension=-emu}, the bundled CPU RCCL.
     *
     * @throws RcclException if no RCCL library can be loaded (the message lists what was tried)
     */
    public static void load() {
        if (loaded) {
            return;
        }
        synchronized (Rccl.class) {
            if (loaded) {
                return;
            }
            try {
                Loader.load(org.rocshmem.global.rccl.class);
            } catch (UnsatisfiedLinkError | ExceptionInInitializerError | NoClassDefFoundError e) {
                String why = RcclLibraryLocator.failure().orElseGet(() -> rootMessage(e));
                throw new RcclException("cannot load RCCL: " + why, e);
            }
            loaded = true;
        }
    }

    /** Which library serves RCCL calls, e.g. "system soname librccl.so.1" or "bundled CPU RCCL ...". */
    public static String library() {
        load();
        return RcclLibraryLocator.loaded().map(RcclLibraryLocator::describe).orElse("unknown");
    }

    /** {@code ncclGetVersion}: e.g. 22707 for NCCL 2.27.7. */
    public static int versionCode() {
        load();
        int[] version = {0};
        check(ncclGetVersion(version), "ncclGetVersion", null);
        return version[0];
    }

    /** The version as "major.minor.patch" (NCCL's encoding: major*10000 + minor*100 + patch). */
    public static String version() {
        int code = versionCode();
        return code / 10000 + "." + code / 100 % 100 + "." + code % 100;
    }

    /** A fresh unique id ({@code ncclGetUniqueId}), to be shared with every rank of the new communicator. */
    public static UniqueId createUniqueId() {
        load();
        return UniqueId.create();
    }

    /**
     * Starts a group ({@code ncclGroupStart}); closing it ends the group ({@code ncclGroupEnd}), which enqueues
     * everything called in between as one fused operation per communicator. Groups belong to the calling thread.
     */
    public static Group group() {
        load();
        return new Group();
    }

    /** RCCL's description of a result code ({@code ncclGetErrorString}). */
    public static String errorString(int code) {
        load();
        return text(ncclGetErrorString(code));
    }

    /** Throws an {@link RcclException} for a failed call (the hot paths call this with success only). */
    static void check(int status, String call, ncclComm comm) {
        if (status != 0) {
            throw new RcclException(call, status, text(ncclGetErrorString(status)), text(ncclGetLastError(comm)));
        }
    }

    static String text(BytePointer p) {
        return p == null || p.isNull() ? "" : p.getString();
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }
}
