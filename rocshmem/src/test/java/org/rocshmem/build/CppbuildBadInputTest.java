package org.rocshmem.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocshmem.testsupport.NativeBuild;

/**
 * cppbuild.sh refuses bad input with one line on stderr and a non-zero status, and never keeps a
 * bad download. Runs a copy of the build scripts in a scratch tree, so the real build's
 * cppbuild/ and downloads/ are never touched.
 */
class CppbuildBadInputTest {
    private static final List<String> SCRIPTS =
            List.of("cppbuild.sh", "rocshmem/cppbuild.sh", "rocshmem/hip-debian.sh", "rocshmem/hip-debian.lock");

    @TempDir
    Path top;

    private record Outcome(int status, List<String> stderr) {
    }

    @BeforeEach
    void copyBuildScripts() throws Exception {
        Path source = NativeBuild.moduleDir().getParent();
        for (String script : SCRIPTS) {
            Files.createDirectories(top.resolve(script).getParent());
            Files.copy(source.resolve(script), top.resolve(script));
        }
    }

    private Outcome cppbuild(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", "cppbuild.sh"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(top.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("ROCM_PATH", top.resolve("no-rocm").toString()); // never take a host ROCm
        pb.environment().putAll(env);
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "cppbuild.sh did not finish");
        return new Outcome(p.exitValue(), err.lines().filter(l -> !l.isBlank()).toList());
    }

    private static void assertOneLineError(Outcome o, String expected) {
        assertNotEquals(0, o.status(), "must fail");
        assertEquals(1, o.stderr().size(), "one line on stderr: " + o.stderr());
        assertTrue(o.stderr().get(0).startsWith("cppbuild.sh: error: ") && o.stderr().get(0).contains(expected),
                o.stderr().get(0));
    }

    @Test
    void unknownPlatformExtensionOrModule() throws Exception {
        assertOneLineError(cppbuild(Map.of(), "-platform=linux-arm64", "install", "rocshmem"),
                "platform linux-arm64 is not supported");
        assertOneLineError(cppbuild(Map.of(), "-extension=-gpu", "install", "rocshmem"),
                "extension '-gpu' is not supported");
        assertOneLineError(cppbuild(Map.of(), "install", "nosuchmodule"), "unknown module 'nosuchmodule'");
    }

    @Test
    void missingToolIsNamedBeforeAnyDownload() throws Exception {
        assertOneLineError(cppbuild(Map.of("CMAKE", "no-such-cmake-tool"), "-extension=-emu", "install", "rocshmem"),
                "missing tool(s): no-such-cmake-tool");
        assertFalse(Files.exists(top.resolve("downloads")), "nothing may be downloaded before the tool check");
    }

    @Test
    void checksumMismatchFailsAndKeepsNothing() throws Exception {
        // Pin one real, small package of the lock with a wrong SHA-256.
        Path lock = top.resolve("rocshmem/hip-debian.lock");
        String[] f = Files.readAllLines(lock).stream().filter(l -> l.contains(" libnuma1 ")).findFirst()
                .orElseThrow().trim().split("\\s+");
        Files.writeString(lock, String.join(" ", "hip", f[1], f[2], "0".repeat(64), f[4]) + "\n");

        assertOneLineError(cppbuild(Map.of()), "checksum mismatch for " + f[1] + "=" + f[2]);
        try (Stream<Path> files = Files.walk(top.resolve("downloads"))) {
            assertFalse(files.anyMatch(p -> p.toString().endsWith(".deb")), "a rejected download must not be kept");
        }
    }

    private Outcome cppbuild(Map<String, String> env) throws Exception {
        return cppbuild(env, "install", "rocshmem");
    }
}
