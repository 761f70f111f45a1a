package org.rocshmem.api;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.bytedeco.javacpp.Loader;
import org.rocshmem.presets.NativeVariant;

/**
 * Loads the JNI libraries and says which native variant actually runs ({@link NativeVariant#loaded()}: read from
 * the path of the HIP library JavaCPP loaded, never from a system property, so a class path holding both native
 * jars cannot silently run the other one). A failed load becomes one {@link NativeLoadException} whose message
 * names the cause and the fix (missing native jar, missing libamdhip64, glibc too old, variant mismatch) instead of
 * a linker trace.
 */
final class NativeLibraries {
    static final String EXTENSION_PROPERTY = NativeVariant.EXTENSION_PROPERTY;
    private static final String EMU = NativeVariant.EMULATOR_EXTENSION;
    /** What a user adds to run on the emulator. */
    private static final String EMU_FLAG = "-D" + EXTENSION_PROPERTY + "=" + EMU;

    private NativeLibraries() {
    }

    /** What was loaded: e.g. {@link NativeVariant#EMULATOR} from {@code .../linux-x86_64-emu/libjnirocshmem.so}. */
    record Loaded(NativeVariant kind, String path) {
        /** The platform directory, e.g. {@code linux-x86_64-emu}. */
        String variant() {
            return kind.platform();
        }

        boolean emulator() {
            return kind == NativeVariant.EMULATOR;
        }
    }

    /** HIP and rocSHMEM: what a session needs. */
    static Loaded loadRocshmem() {
        loadHip();
        // rocSHMEM reads its settings once, while its library loads: the API's own host contexts go in first.
        HostContextProvisioning.provisionDefault();
        Loaded loaded = load(org.rocshmem.global.rocshmem.class, "rocshmem");
        checkVersion(loaded);
        return loaded;
    }

    private static volatile boolean versionChecked;

    /**
     * The rocSHMEM headers the JNI library was compiled against (ROCSHMEM_VENDOR_*_VERSION) must describe the
     * library it runs (rocshmem_vendor_get_version_info): a mix of two installs fails here, in one paragraph,
     * instead of in a call whose struct layout or semantics changed. On the emulator both are the emulated version.
     */
    static void checkVersion(Loaded loaded) {
        if (versionChecked) {
            return;
        }
        int[] major = {0};
        int[] minor = {0};
        int[] patch = {0};
        org.rocshmem.global.rocshmem.rocshmem_vendor_get_version_info(major, minor, patch);
        String built = org.rocshmem.global.rocshmem.ROCSHMEM_VENDOR_MAJOR_VERSION + "."
                + org.rocshmem.global.rocshmem.ROCSHMEM_VENDOR_MINOR_VERSION + "."
                + org.rocshmem.global.rocshmem.ROCSHMEM_VENDOR_PATCH_VERSION;
        String running = major[0] + "." + minor[0] + "." + patch[0];
        if (!built.equals(running)) {
            throw new NativeLoadException(versionMismatch(built, running, loaded.path()), null);
        }
        versionChecked = true;
    }

    static String versionMismatch(String built, String running, String path) {
        return "rocSHMEM version mismatch: the JNI library " + path + " was compiled against the headers of rocSHMEM "
                + built + " but runs rocSHMEM " + running + ". Its headers and librocshmem.a come from two different"
                + " installs; rebuild with ROCSHMEM_HOME (or the CMake package cppbuild.sh finds) naming one install"
                + " for both, then `mvn -Pplatform install`.";
    }

    /** HIP alone: what the diagnosis needs first. */
    static Loaded loadHip() {
        return load(org.rocshmem.global.hip.class, "hip");
    }

    private static Loaded load(Class<?> global, String library) {
        NativeVariant variant;
        String path;
        try {
            variant = NativeVariant.loaded();
            path = Loader.load(global);
        } catch (Throwable e) {
            throw new NativeLoadException(explain(e, library), e);
        }
        if (path == null) {
            throw new NativeLoadException(explain(new UnsatisfiedLinkError("Loader.load returned no path"), library),
                    null);
        }
        if (NativeVariant.ofLibrary(Path.of(path)) != variant) {
            throw new NativeLoadException("rocSHMEM for Java loaded " + path + " next to the " + variant.platform()
                    + " HIP library: the native jars on the class path are of different variants. Fix: keep one"
                    + " variant's native jars (rocshmem-platform or rocshmem-platform-emu), and clear"
                    + " ~/.javacpp/cache.", null);
        }
        return new Loaded(variant, path);
    }

    static String requestedVariant() {
        return Loader.getPlatform() + System.getProperty(EXTENSION_PROPERTY, "");
    }

    /** Whether the class path holds the native jar of {@code variant} with the given JNI library. */
    static boolean onClassPath(String variant, String library) {
        return NativeLibraries.class.getResource("/org/rocshmem/" + variant + "/libjni" + library + ".so") != null;
    }

    /** One paragraph: what went wrong, why, and what to do. */
    static String explain(Throwable failure, String library) {
        String requested = requestedVariant();
        String real = Loader.getPlatform();
        String emu = real + EMU;
        boolean wantEmu = requested.endsWith(EMU);
        boolean haveReal = onClassPath(real, "hip");
        boolean haveEmu = onClassPath(emu, "hip");
        String causes = causeText(failure);
        String lower = causes.toLowerCase(Locale.ROOT);
        StringBuilder s = new StringBuilder("rocSHMEM for Java could not load its native libraries (variant "
                + requested + "). ");
        if (wantEmu && !haveEmu) {
            s.append("The CPU emulator was requested (" + EMU_FLAG + ") but its native jar is not on"
                    + " the class path. Fix: depend on org.rocshmem:rocshmem-platform-emu (or add"
                    + " rocshmem-<version>-" + emu + ".jar to the class path).");
        } else if (!wantEmu && !haveReal && haveEmu) {
            s.append("Only the CPU emulator's native jar is on the class path, but the real variant was requested"
                    + " (no " + EMU_FLAG + "). Fix: add " + EMU_FLAG + " to run on"
                    + " the emulator, or depend on org.rocshmem:rocshmem-platform for an AMD GPU.");
        } else if (!haveReal && !haveEmu) {
            s.append("No rocSHMEM native jar is on the class path. Fix: depend on org.rocshmem:rocshmem-platform"
                    + " (AMD GPU) or org.rocshmem:rocshmem-platform-emu (CPU emulator, with " + EMU_FLAG
                    + ").");
        } else if (lower.contains("libamdhip64") && lower.contains("cannot open shared object")) {
            s.append("The real variant needs the ROCm HIP runtime libamdhip64.so.7, which the system linker cannot"
                    + " find. Fix: install ROCm (or put $ROCM_PATH/lib on LD_LIBRARY_PATH); without an AMD GPU, use"
                    + " the CPU emulator: org.rocshmem:rocshmem-platform-emu and " + EMU_FLAG + ".");
            if (haveEmu) {
                s.append(" (The emulator's native jar is already on the class path.)");
            }
        } else if ((lower.contains("glibc_") || lower.contains("glibcxx_")) && lower.contains("not found")) {
            s.append("The HIP runtime found here needs a newer C/C++ runtime (" + firstGlibcVersion(causes)
                    + ") than this system provides (glibc " + systemGlibc() + "). Fix: use a ROCm build made for"
                    + " this distribution (AMD's packages for your OS release), or run on a newer system; without an"
                    + " AMD GPU, use the CPU emulator (" + EMU_FLAG + ").");
        } else if (!onClassPath(requested, library)) {
            s.append("The " + requested + " native jar on the class path has no " + library + " library: it was"
                    + " built without rocSHMEM (a hip-only build). Fix: use a jar built on a ROCm host with rocSHMEM,"
                    + " or the CPU emulator (" + EMU_FLAG + " with rocshmem-platform-emu).");
        } else {
            s.append("Cause: " + rootMessage(failure) + ". Run with -Dorg.bytedeco.javacpp.logger.debug=true to see"
                    + " every path JavaCPP tried; after switching variants, clear ~/.javacpp/cache.");
        }
        return s.toString();
    }

    private static String causeText(Throwable failure) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = failure; t != null && messages.size() < 10; t = t.getCause()) {
            messages.add(String.valueOf(t.getMessage()));
        }
        return String.join(" | ", messages);
    }

    private static String rootMessage(Throwable failure) {
        Throwable t = failure;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    private static String firstGlibcVersion(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("GLIBC(XX)?_[0-9.]+").matcher(text);
        return m.find() ? m.group() : "a newer glibc";
    }

    /** The system's glibc version (confstr via getconf), only asked on this failure path. */
    private static String systemGlibc() {
        try {
            Process p = new ProcessBuilder("getconf", "GNU_LIBC_VERSION").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            p.waitFor();
            return out.replace("glibc ", "");
        } catch (Exception e) {
            return "unknown";
        }
    }
}
