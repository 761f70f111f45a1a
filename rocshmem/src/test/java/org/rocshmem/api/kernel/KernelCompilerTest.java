package org.rocshmem.api.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** KernelCompiler's one-line reports of what is missing, and the hipcc command it runs, without compiling anything. */
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

    @Test
    void theGpuObjectTargetsEveryArchitectureRocshmemSupports(@TempDir Path dir) throws Exception {
        Path sources = Files.createDirectories(dir.resolve("hip/kernels"));
        Files.writeString(sources.resolve("k.hip"), "extern \"C\" __global__ void k() {}\n");
        // stand-ins that record their arguments and write the output named after -o
        Path emu = Files.createDirectories(dir.resolve("emu/bin"));
        Files.writeString(emu.resolve(KernelCompiler.DRIVER), "import sys\nopen(sys.argv[3], 'w').close()\n");
        Path rocm = Files.createDirectories(dir.resolve("rocm/bin"));
        Path hipcc = rocm.resolve("hipcc");
        Files.writeString(hipcc, "#!/bin/sh\necho \"$@\" > \"" + dir.resolve("hipcc.args") + "\"\n"
                + "while [ \"$1\" != -o ]; do shift; done; : > \"$2\"\n");
        hipcc.toFile().setExecutable(true);
        Path library = Files.createFile(Files.createDirectories(dir.resolve("rocm/lib")).resolve("librocshmem.a"));
        Map<String, String> env = Map.of("PATH", System.getenv("PATH"), "ROCM_PATH", dir.resolve("rocm").toString());
        KernelCompiler.fromArguments(new String[] {"--gpu", "on", "--emu-root", dir.resolve("emu").toString(),
                dir.resolve("hip").toString(), dir.resolve("out").toString()}, env).run();
        // rocSHMEM's ROCSHMEM_OFFLOAD_TARGETS default on ROCm 7, so a code object built on one GPU loads on another
        List<String> args = List.of(Files.readString(dir.resolve("hipcc.args")).trim().split(" "));
        List<String> flags = args.stream().filter(a -> a.startsWith("--offload-arch=")).toList();
        assertEquals(List.of("--offload-arch=gfx90a", "--offload-arch=gfx1100", "--offload-arch=gfx1201",
                "--offload-arch=gfx942", "--offload-arch=gfx950", "--offload-arch=gfx1250"), flags);
        // librocshmem.a after -x none: hipcc --genco passes -x hip, which would compile the archive as a source
        assertEquals(List.of("-x", "none", library.toString()), args.subList(args.size() - 3, args.size()));
        assertEquals(true, Files.exists(dir.resolve("out/kernels/k.hsaco")));
    }
}
