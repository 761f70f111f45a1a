package org.rocshmem.api.info;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocshmem.api.NativeLoadException;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.rccl.Rccl;
import org.rocshmem.testsupport.NativeBuild;

/**
 * The diagnosis ({@code org.rocshmem.api.Info}) tells the truth for a correct setup and names the cause and the fix
 * for each way loading fails; {@code Rocshmem.init()} reports the same paragraph. Each case runs a fresh JVM with a
 * class path that has exactly the native jar(s) the case needs (a copy of the built libraries).
 */
class InfoTest {
    private static final String EMU = "linux-x86_64-emu";
    private static final String REAL = "linux-x86_64";

    @TempDir
    Path temp;

    /** What a child JVM printed and how it ended. */
    record Run(int status, String out) {
        void hasNoStackTrace() {
            assertFalse(out.contains("\tat "), "a diagnosis, not a stack trace:\n" + out);
        }
    }

    // ---------------------------------------------------------------- emulator variant

    @Test
    @Tag("emu")
    void correctEmulatorSetupIsReportedFromTheLoadedLibrary() throws Exception {
        Run run = java(javaBinary(), natives(EMU), List.of("-Dorg.bytedeco.javacpp.platform.extension=-emu"),
                Map.of("ROCSHMEM_HEAP_SIZE", "64M", "ROCSHMEM_BOOTSTRAP_SECRET", "s3cr3t"), "org.rocshmem.api.Info");
        assertEquals(0, run.status(), run.out());
        assertTrue(run.out().contains("loaded variant    : linux-x86_64-emu (CPU emulation backend) from "), run.out());
        assertTrue(run.out().contains("HIP devices       : 1"), run.out());
        assertTrue(run.out().contains("rocSHMEM          : rocSHMEM_v3.8.0_CPU-emulator (library 3.8.0, OpenSHMEM 1.4)"),
                run.out());
        assertTrue(run.out().contains("ROCSHMEM_HEAP_SIZE=64M"), run.out());
        // the effective values, defaults filled in, from the emulator itself
        for (String effective : List.of("effective settings:", "    ROCSHMEM_HEAP_SIZE=67108864 bytes per PE",
                "    ROCSHMEM_MAX_NUM_TEAMS=40 (38 user teams)", "    ROCSHMEM_EMU_COMPLETION=deferred",
                "    ROCSHMEM_DEBUG_LEVEL=ERROR", "    rocSHMEM version=3.8.0 (emulated)")) {
            assertTrue(run.out().contains(effective), effective + " in:\n" + run.out());
        }
        assertTrue(run.out().contains("ROCSHMEM_BOOTSTRAP_SECRET=(set, not shown)"), run.out());
        assertFalse(run.out().contains("s3cr3t"), run.out());
        // issue 26 item 1: the host-context pool the API provisioned, and why; the emulator read that value
        assertTrue(run.out().contains("host contexts     : ROCSHMEM_MAX_NUM_HOST_CONTEXTS=6 (set by the Java API before"
                + " rocSHMEM loaded: rocSHMEM's default context, the session's context of the host collectives and 4 of"
                + " the program's own; ask for more with InitOptions.hostContexts(n))"), run.out());
        assertTrue(run.out().contains("    ROCSHMEM_MAX_NUM_HOST_CONTEXTS=6 (the default context included)"), run.out());
    }

    @Test
    @Tag("emu")
    void anExplicitHostContextPoolWinsAndIsShownAsSuch() throws Exception {
        Run run = java(javaBinary(), natives(EMU), List.of("-Dorg.bytedeco.javacpp.platform.extension=-emu"),
                Map.of("ROCSHMEM_MAX_NUM_HOST_CONTEXTS", "3"), "org.rocshmem.api.Info");
        assertEquals(0, run.status(), run.out());
        assertTrue(run.out().contains("host contexts     : ROCSHMEM_MAX_NUM_HOST_CONTEXTS=3 (from the environment,"
                + " which wins;"), run.out());
        assertTrue(run.out().contains("    ROCSHMEM_MAX_NUM_HOST_CONTEXTS=3 (the default context included)"), run.out());
    }

    @Test
    @Tag("emu")
    void missingEmulatorJarIsNamedWithItsArtifact() throws Exception {
        Run run = java(javaBinary(), List.of(), List.of("-Dorg.bytedeco.javacpp.platform.extension=-emu"), Map.of(),
                "org.rocshmem.api.Info");
        assertEquals(1, run.status(), run.out());
        assertTrue(run.out().contains("The CPU emulator was requested") && run.out().contains("rocshmem-platform-emu"),
                run.out());
        run.hasNoStackTrace();
    }

    @Test
    @Tag("emu")
    void emulatorJarWithoutTheEmuFlagIsAReportedVariantMismatch() throws Exception {
        // JavaCPP falls back to the only native jar present: the diagnosis says what really runs, and that it is
        // not what was asked for
        Run run = java(javaBinary(), natives(EMU), List.of(), Map.of(), "org.rocshmem.api.Info");
        assertEquals(0, run.status(), run.out());
        assertTrue(run.out().contains("requested variant : linux-x86_64\n"), run.out());
        assertTrue(run.out().contains("loaded variant    : linux-x86_64-emu (CPU emulation backend)"), run.out());
        assertTrue(run.out().contains("NOTE: variant mismatch: linux-x86_64 was requested but linux-x86_64-emu loaded")
                && run.out().contains("-Dorg.bytedeco.javacpp.platform.extension=-emu"), run.out());
        run.hasNoStackTrace();
    }

    @Test
    @Tag("emu")
    void rcclFollowsTheLoadedVariantNotTheProperty() throws Exception {
        // Only the emulator's jar and no -emu flag: HIP and rocSHMEM run on the emulator, so RCCL must too (it used
        // to read the property and look for the real librccl.so.1)
        Run run = java(javaBinary(), natives(EMU), List.of(), Map.of("NCCL_LIBRARY", "/nonexistent/librccl.so.1"),
                LoadRccl.class.getName());
        assertEquals(0, run.status(), run.out());
        assertTrue(run.out().contains("RCCL: bundled CPU RCCL librccl_cpu_emu.so, version 2.27.7"), run.out());
    }

    /** Loads RCCL and says which library it took. */
    public static final class LoadRccl {
        public static void main(String[] args) {
            System.out.println("RCCL: " + Rccl.library() + ", version " + Rccl.version());
        }
    }

    @Test
    @Tag("emu")
    void initReportsTheSameParagraphInsteadOfALinkerTrace() throws Exception {
        Run run = java(javaBinary(), List.of(), List.of("-Dorg.bytedeco.javacpp.platform.extension=-emu"), Map.of(),
                InitWithoutNatives.class.getName());
        assertEquals(3, run.status(), run.out());
        assertTrue(run.out().startsWith("NativeLoadException: rocSHMEM for Java could not load its native libraries"),
                run.out());
        assertTrue(run.out().contains("rocshmem-platform-emu"), run.out());
    }

    /** A user program: Rocshmem.init() on a class path without the native jar. */
    public static final class InitWithoutNatives {
        public static void main(String[] args) {
            try {
                Rocshmem.init();
            } catch (NativeLoadException e) {
                System.out.println("NativeLoadException: " + e.getMessage());
                System.exit(3);
            }
        }
    }

    // ---------------------------------------------------------------- real variant (HIP from Debian, no GPU)

    @Test
    @Tag("real-hip")
    void realVariantWithoutLibamdhip64SaysWhatToInstall() throws Exception {
        Run run = java(javaBinary(), natives(REAL), List.of(), Map.of("LD_LIBRARY_PATH", ""), "org.rocshmem.api.Info");
        assertEquals(1, run.status(), run.out());
        assertTrue(run.out().contains("needs the ROCm HIP runtime libamdhip64.so.7") && run.out().contains("ROCm"),
                run.out());
        run.hasNoStackTrace();
    }

    @Test
    @Tag("real-hip")
    void realVariantOnTooOldAGlibcSaysSo() throws Exception {
        // the Debian sid HIP runtime and its own dependencies, but this system's (older) C and C++ runtimes
        Path libs = Files.createDirectory(temp.resolve("hip-without-glibc"));
        Path sid = NativeBuild.moduleDir().resolve("cppbuild/sid-runtime/usr/lib/x86_64-linux-gnu");
        try (Stream<Path> files = Files.list(sid)) {
            for (Path f : files.filter(p -> p.getFileName().toString().contains(".so")).toList()) {
                String name = f.getFileName().toString();
                if (!name.matches("(libc|libm|libdl|libpthread|librt|ld-linux|libanl|libresolv|libnss|libutil"
                        + "|libBrokenLocale|libmvec|libc_malloc|libmemusage|libnsl|libthread_db|libpcprofile|libstdc\\+\\+"
                        + "|libgcc_s).*")) {
                    Files.createSymbolicLink(libs.resolve(name), f.toAbsolutePath());
                }
            }
        }
        Run run = java(javaBinary(), natives(REAL), List.of(), Map.of("LD_LIBRARY_PATH", libs.toString()),
                "org.rocshmem.api.Info");
        assertEquals(1, run.status(), run.out());
        assertTrue(run.out().contains("needs a newer C/C++ runtime (GLIBC") && run.out().contains("than this system"
                + " provides (glibc 2."), run.out());
        run.hasNoStackTrace();
    }

    @Test
    @Tag("real-hip")
    void realVariantThroughSidsLoaderShowsTheRuntimeAndNoDevice() throws Exception {
        String sidJava = System.getProperty("rocshmem.realhip.jvm");
        Run run = java(sidJava, natives(REAL), List.of(), Map.of(), "org.rocshmem.api.Info");
        assertTrue(run.out().contains("loaded variant    : linux-x86_64 (system HIP runtime) from "), run.out());
        assertTrue(run.out().contains("HIP devices       : unavailable: hipErrorNoDevice (100)"), run.out());
        assertTrue(run.out().matches("(?s).*HIP runtime       : \\d+.*"), run.out());
        // this machine builds the real variant without rocSHMEM (hip-only): the diagnosis says so
        if (!Files.exists(NativeBuild.jniLibrary("rocshmem"))) {
            assertEquals(1, run.status(), run.out());
            assertTrue(run.out().contains("built without rocSHMEM (a hip-only build)"), run.out());
        }
        run.hasNoStackTrace();
    }

    // ---------------------------------------------------------------- helpers

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** A copy of one variant's built native libraries, as its native jar would hold them. */
    private List<Path> natives(String variant) throws IOException {
        Path root = Files.createDirectories(temp.resolve("natives-" + variant));
        Path target = Files.createDirectories(root.resolve("org/rocshmem/" + variant));
        Path built = NativeBuild.moduleDir().resolve("target/native/org/rocshmem/" + variant);
        try (Stream<Path> files = Files.list(built)) {
            for (Path f : files.toList()) {
                Files.copy(f, target.resolve(f.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        return List.of(root);
    }

    /** Runs {@code main} in a fresh JVM: the API classes, JavaCPP, and only the given native roots. */
    private Run java(String javaBinary, List<Path> nativeRoots, List<String> jvmArgs, Map<String, String> env,
                     String main) throws IOException, InterruptedException {
        List<String> classPath = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = Path.of(entry).getFileName().toString();
            if (name.startsWith("javacpp-") || entry.endsWith("classes") || entry.endsWith("test-classes")
                    || name.startsWith("junit-") || name.startsWith("opentest4j") || name.startsWith("apiguardian")) {
                classPath.add(entry);
            }
        }
        nativeRoots.forEach(p -> classPath.add(p.toString()));
        List<String> command = new ArrayList<>(List.of(javaBinary, "-cp", String.join(File.pathSeparator, classPath),
                "-Dorg.bytedeco.javacpp.cachedir=" + Files.createTempDirectory(temp, "cache")));
        command.addAll(jvmArgs);
        command.add(main);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(k -> k.startsWith("ROCSHMEM_") || k.equals("RANK")
                || k.equals("WORLD_SIZE") || k.startsWith("OMPI_"));
        builder.environment().putAll(env);
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the diagnosis hung:\n" + out);
        return new Run(process.exitValue(), out);
    }
}
