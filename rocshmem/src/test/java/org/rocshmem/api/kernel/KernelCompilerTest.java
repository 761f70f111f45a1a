package org.rocshmem.api.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** KernelCompiler's one-line reports of what is missing, without compiling anything. */
class KernelCompilerTest {

    private static String failure(Map<String, String> env, String... args) {
        return assertThrows(KernelCompiler.KernelBuildException.class,
                () -> KernelCompiler.fromArguments(args, env).run()).getMessage();
    }

    @Test
    void aMissingCompilerNamesWhatToInstall(@TempDir Path dir) throws Exception {
        Path sources = Files.createDirectories(dir.resolve("hip/kernels"));
        Files.writeString(sources.resolve("k.hip"), "extern \"C\" __global__ void k() {}\n");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        String hip = dir.resolve("hip").toString();
        String out = dir.resolve("out").toString();
        assertEquals("the CPU emulator's compile driver is a python3 script, but python3 is not on PATH: install it"
                + " (Debian/Ubuntu: apt-get install python3)", failure(Map.of("PATH", bin.toString()), "--gpu", "off",
                hip, out));
        Path python = Files.createFile(bin.resolve("python3"));
        python.toFile().setExecutable(true);
        assertEquals("the CPU emulator compiles kernels as C++17, but g++ is not on PATH: install it (Debian/Ubuntu:"
                + " apt-get install g++)", failure(Map.of("PATH", bin.toString()), "--gpu", "off", hip, out));
        assertEquals("the CPU emulator compiles kernels as C++17, but clang++-19 (from $CXX) is not on PATH: install"
                + " it (Debian/Ubuntu: apt-get install g++)", failure(Map.of("PATH", bin.toString(), "CXX",
                "clang++-19"), "--gpu", "off", hip, out));
        assertEquals("--gpu on, but hipcc was not found (looked in $ROCM_PATH/bin and on PATH): install ROCm's hipcc"
                + " (or set ROCM_PATH)", failure(Map.of("PATH", bin.toString(), "ROCM_PATH", dir.toString()), "--gpu",
                "on", hip, out));
    }

    @Test
    void badArgumentsAreOneLine(@TempDir Path dir) {
        assertEquals("expected <sources> <output>, got [a]", failure(Map.of(), "a"));
        assertEquals("--gpu takes auto, on or off, not sometimes", failure(Map.of(), "--gpu", "sometimes", "a", "b"));
        assertEquals("unknown option --fast (usage: [--gpu auto|on|off] [--offload-arch list] [-I dir]..."
                + " [--emu-root dir] <sources> <output>)", failure(Map.of(), "--fast", "a", "b"));
        assertEquals("the kernel source directory " + dir.resolve("none") + " does not exist",
                failure(Map.of(), dir.resolve("none").toString(), dir.toString()));
    }
}
