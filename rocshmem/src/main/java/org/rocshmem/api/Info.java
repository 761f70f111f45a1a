package org.rocshmem.api;

import static org.rocshmem.global.hip.HIP_VERSION_MAJOR;
import static org.rocshmem.global.hip.HIP_VERSION_MINOR;
import static org.rocshmem.global.hip.HIP_VERSION_PATCH;
import static org.rocshmem.global.hip.hipDriverGetVersion;
import static org.rocshmem.global.hip.hipGetDeviceCount;
import static org.rocshmem.global.hip.hipGetErrorName;
import static org.rocshmem.global.hip.hipRuntimeGetVersion;
import static org.rocshmem.global.hip.hipSuccess;

import java.io.PrintStream;
import java.util.Map;
import java.util.TreeMap;

/**
 * The diagnosis to run first: {@code java -cp <class path> org.rocshmem.api.Info}. It prints the native variant
 * that actually loaded (from the loaded library's path), the HIP runtime and driver versions and the device
 * count, what rocSHMEM reports about itself, on the emulator the effective value of every setting it reads (limits,
 * heap, completion mode, profile), and the environment variables that steer this library. When loading
 * fails it prints one paragraph naming the cause and the fix, and exits with status 1.
 */
public final class Info {
    /** Environment variables shown: the prefixes and names this library, its launchers and HIP read. */
    private static final String[] PREFIXES = {"ROCSHMEM_", "HIP_", "ROCM_", "OMPI_COMM_WORLD_", "SLURM_", "NCCL_"};
    private static final String[] NAMES = {"RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR",
        "MASTER_PORT", "LD_LIBRARY_PATH"};

    private Info() {
    }

    public static void main(String[] args) {
        System.exit(print(System.out, System.getenv()) ? 0 : 1);
    }

    /** Prints the diagnosis; false when the native libraries could not be loaded. */
    static boolean print(PrintStream out, Map<String, String> env) {
        out.println("rocSHMEM for Java: diagnosis");
        out.println("  requested variant : " + NativeLibraries.requestedVariant());
        NativeLibraries.Loaded hip;
        try {
            hip = NativeLibraries.loadHip();
        } catch (NativeLoadException e) {
            out.println();
            out.println(e.getMessage());
            environment(out, env);
            return false;
        }
        out.println("  loaded variant    : " + hip.variant() + " (" + hip.kind().description() + ") from "
                + hip.path());
        if (!hip.variant().equals(NativeLibraries.requestedVariant())) {
            out.println("  NOTE: variant mismatch: " + NativeLibraries.requestedVariant() + " was requested but "
                    + hip.variant() + " loaded, because it is the only native jar on the class path. Say which one"
                    + " you mean: -D" + NativeLibraries.EXTENSION_PROPERTY + "=" + hip.kind().extension()
                    + ", and keep only that variant's native jar on the class path.");
        }
        out.println("  HIP headers       : " + HIP_VERSION_MAJOR + "." + HIP_VERSION_MINOR + "." + HIP_VERSION_PATCH);
        int[] value = {0};
        out.println("  HIP runtime       : " + result(hipRuntimeGetVersion(value), value[0]));
        out.println("  HIP driver        : " + result(hipDriverGetVersion(value), value[0]));
        out.println("  HIP devices       : " + result(hipGetDeviceCount(value), value[0]));
        boolean ok = true;
        try {
            NativeLibraries.loadRocshmem();
            LibraryInfo library = LibraryInfo.query();
            out.println("  rocSHMEM          : " + library.name() + " (library " + library.vendorVersion()
                    + ", OpenSHMEM " + library.specVersion() + ")");
            out.println("  host contexts     : " + HostContextProvisioning.describe());
            String settings = Emulator.settings(new Backend(library.name(), hip.kind()));
            if (!settings.isEmpty()) {
                out.println("  effective settings: (the emulator's, from the environment and its defaults)");
                settings.lines().forEach(line -> out.println("    " + line));
            }
        } catch (NativeLoadException e) {
            out.println();
            out.println(e.getMessage());
            ok = false;
        }
        environment(out, env);
        return ok;
    }

    private static String result(int status, int value) {
        return status == hipSuccess ? String.valueOf(value)
                : "unavailable: " + hipGetErrorName(status).getString() + " (" + status + ")";
    }

    private static void environment(PrintStream out, Map<String, String> env) {
        Map<String, String> shown = new TreeMap<>();
        env.forEach((name, value) -> {
            boolean wanted = java.util.Arrays.asList(NAMES).contains(name);
            for (String prefix : PREFIXES) {
                wanted |= name.startsWith(prefix);
            }
            if (wanted) {
                shown.put(name, name.contains("SECRET") ? "(set, not shown)" : value);
            }
        });
        out.println("  environment       : " + (shown.isEmpty() ? "(none of ROCSHMEM_*, RANK, MASTER_*, ... set)" : ""));
        shown.forEach((name, value) -> out.println("    " + name + "=" + value));
    }
}
