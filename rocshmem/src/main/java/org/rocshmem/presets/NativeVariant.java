package org.rocshmem.presets;

import java.nio.file.Path;
import org.bytedeco.javacpp.Loader;

/**
 * The native variants of the bindings, and the one answer to "which variant runs in this process". A variant is a
 * JavaCPP platform extension: its native jar holds {@code org/rocshmem/<platform><extension>/libjni*.so}.
 *
 * <p>Which variant runs is read from the directory of the HIP JNI library JavaCPP loaded, never from the
 * {@value #EXTENSION_PROPERTY} property alone: with only one native jar on the class path JavaCPP loads that one
 * whatever the property says, and every library (HIP, rocSHMEM, RCCL) must then follow the same variant.
 *
 * <p>A further variant is added here (a constant with its extension), plus a {@code @Platform(extension = ...)}
 * entry in the hip, rocshmem and rccl presets and its native build in cppbuild.sh (docs/layout.md).
 */
public enum NativeVariant {
    /** The real libraries: ROCm's HIP, rocSHMEM and RCCL, on an AMD GPU. */
    GPU(""),
    /** The CPU emulator: the project's HIP, rocSHMEM and RCCL on POSIX shared memory, one node. */
    EMULATOR(NativeVariant.EMULATOR_EXTENSION);

    /** The emulator's platform extension, spelled once (also usable in annotations). */
    public static final String EMULATOR_EXTENSION = "-emu";
    /** The JavaCPP property that requests a variant. */
    public static final String EXTENSION_PROPERTY = "org.bytedeco.javacpp.platform.extension";

    private static final String HIP_GLOBAL = "org.rocshmem.global.hip";
    private static NativeVariant loaded;

    private final String extension;

    NativeVariant(String extension) {
        this.extension = extension;
    }

    /** The platform extension ({@code ""} or {@code "-emu"}). */
    public String extension() {
        return extension;
    }

    /** The platform directory of this variant on this machine, e.g. {@code linux-x86_64-emu}. */
    public String platform() {
        return Loader.getPlatform() + extension;
    }

    /** A short description for diagnostics. */
    public String description() {
        return this == EMULATOR ? "CPU emulation backend" : "system HIP runtime";
    }

    /** The variant a platform directory name ({@code linux-x86_64-emu}) belongs to, or null if none. */
    public static NativeVariant ofPlatform(String platformDirectory) {
        NativeVariant match = null;
        for (NativeVariant v : values()) {
            if (platformDirectory.equals(v.platform())) {
                match = v;
            }
        }
        return match;
    }

    /** The variant of a JNI library, read from the platform directory it sits in, or null if unknown. */
    public static NativeVariant ofLibrary(Path library) {
        Path dir = library.getParent();
        return dir == null ? null : ofPlatform(dir.getFileName().toString());
    }

    /**
     * The variant that runs in this process: the one whose HIP JNI library JavaCPP loaded (loading it if it is not
     * yet). HIP comes first for every library, so rocSHMEM and RCCL follow this answer.
     *
     * @throws UnsatisfiedLinkError when the HIP JNI library cannot be loaded, or sits in no variant's directory
     */
    public static synchronized NativeVariant loaded() {
        if (loaded == null) {
            String path;
            try {
                path = Loader.load(Class.forName(HIP_GLOBAL));
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(HIP_GLOBAL + " is missing from the class path", e);
            }
            NativeVariant v = path == null ? null : ofLibrary(Path.of(path));
            if (v == null) {
                throw new UnsatisfiedLinkError("the HIP JNI library " + path + " is in no known variant's directory ("
                        + GPU.platform() + ", " + EMULATOR.platform() + ")");
            }
            loaded = v;
        }
        return loaded;
    }
}
