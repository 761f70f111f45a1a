package org.rocshmem.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.rocshmem.presets.NativeVariant;

/** Where the build put native artifacts, as told by the Surefire configuration. */
public final class NativeBuild {
    private NativeBuild() {
    }

    public static Path moduleDir() {
        return Path.of(System.getProperty("rocshmem.basedir", "."));
    }

    /** {@code linux-x86_64} (real HIP) or {@code linux-x86_64-emu} (CPU emulator). */
    public static String platform() {
        return System.getProperty("rocshmem.platform", "linux-x86_64");
    }

    public static boolean isEmulator() {
        return platform().endsWith(NativeVariant.EMULATOR_EXTENSION);
    }

    public static Path jniLibrary(String name) {
        return moduleDir().resolve("target/native/org/rocshmem/" + platform() + "/libjni" + name + ".so");
    }

    public static Path cppbuildLib(String fileName) {
        return moduleDir().resolve("cppbuild/" + platform() + "/lib/" + fileName);
    }

    /** Runs a command, returns its stdout lines; fails on a non-zero exit or after 60 s. */
    public static List<String> run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + err);
        }
        return new ArrayList<>(List.of(new String(out, StandardCharsets.UTF_8).split("\n")));
    }

    public static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
