package org.rocshmem.api;

import static org.rocshmem.global.hip.*;

import org.bytedeco.javacpp.Loader;

/**
 * Prints what this process sees of HIP: which native variant was loaded, the runtime and driver
 * versions, and the devices (or, on a machine without an AMD GPU, the runtime's error in words).
 * Run it first when something does not load: {@code java -cp ... org.rocshmem.api.Diagnostics}.
 */
public final class Diagnostics {
    private Diagnostics() {
    }

    public static void main(String[] args) {
        Loader.load(org.rocshmem.global.hip.class);
        String extension = System.getProperty("org.bytedeco.javacpp.platform.extension", "");
        System.out.println("native variant : " + Loader.getPlatform() + extension
                + (extension.endsWith("-emu") ? " (CPU emulation backend)" : " (system libamdhip64)"));
        System.out.println("HIP headers    : " + HIP_VERSION_MAJOR + "." + HIP_VERSION_MINOR + "." + HIP_VERSION_PATCH);
        int[] version = {0};
        report("runtime version", hipRuntimeGetVersion(version), version[0]);
        report("driver version ", hipDriverGetVersion(version), version[0]);
        int[] count = {0};
        int status = hipGetDeviceCount(count);
        report("device count   ", status, count[0]);
    }

    private static void report(String what, int status, int value) {
        if (status == hipSuccess) {
            System.out.println(what + ": " + value);
        } else {
            System.out.println(what + ": " + hipGetErrorName(status).getString() + " (" + status + "): "
                    + hipGetErrorString(status).getString());
        }
    }
}
