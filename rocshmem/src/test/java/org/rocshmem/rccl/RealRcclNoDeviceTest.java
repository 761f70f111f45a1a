package org.rocshmem.rccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rocshmem.global.rccl.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocshmem.api.rccl.Communicator;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceMemory;
import org.rocshmem.api.hip.HipException;
import org.rocshmem.api.rccl.Rccl;
import org.rocshmem.api.rccl.RcclException;
import org.rocshmem.api.rccl.RcclResult;
import org.rocshmem.api.rccl.UniqueId;
import org.rocshmem.presets.RcclLibraryLocator;
import org.rocshmem.testsupport.NativeBuild;

/**
 * The real librccl.so.1 7.2.4 from Debian's archive on a machine without an AMD GPU (Surefire execution
 * "real-hip-test", JVM started through sid's loader): what it does without a device, and how it is found.
 */
@Tag("real-hip")
class RealRcclNoDeviceTest {
    private static final Path SID = NativeBuild.moduleDir().resolve("cppbuild/sid-runtime");
    private static final Path DEBIAN_RCCL = NativeBuild.moduleDir().resolve("cppbuild/debian-rccl/usr/lib/x86_64-linux-gnu");

    @Test
    void uniqueIdAndInitFailWithAnUnhandledHipErrorWithoutADevice() {
        Rccl.load();
        try (ncclUniqueId id = new ncclUniqueId()) {
            id.zero();
            assertEquals(ncclUnhandledCudaError, ncclGetUniqueId(id));
            byte[] bytes = new byte[NCCL_UNIQUE_ID_BYTES];
            id.internal().get(bytes);
            assertEquals(0, nonZero(bytes), "a failed ncclGetUniqueId leaves the id untouched");

            ncclComm comm = new ncclComm();
            assertEquals(ncclUnhandledCudaError, ncclCommInitRank(comm, 1, id, 0));
            assertTrue(comm.isNull(), "no communicator without a device");
        }
        // The typed API turns the same into exceptions.
        RcclException e = assertThrows(RcclException.class, Rccl::createUniqueId);
        assertEquals(RcclResult.UNHANDLED_CUDA_ERROR, e.result());
        assertTrue(e.getMessage().startsWith("ncclGetUniqueId failed: ncclUnhandledCudaError (1): unhandled cuda error"),
                e.getMessage());
        RcclException init = assertThrows(RcclException.class,
                () -> Communicator.init(1, UniqueId.of(new byte[UniqueId.BYTES]), 0));
        assertEquals(RcclResult.UNHANDLED_CUDA_ERROR, init.result());
        // device memory is HIP's (hipMalloc), so HIP answers for it
        HipException alloc = assertThrows(HipException.class, () -> DeviceMemory.allocate(16, DataType.FLOAT32));
        assertTrue(alloc.getMessage().startsWith("hipMalloc(64 bytes) failed: "), alloc.getMessage());
    }

    /** The emulator's ctest rccl_exports_match_header checks its side against the same header. */
    @Test
    void theRealLibraryExportsExactlyThePublicFunctionsOfTheHeader() throws Exception {
        java.util.Set<String> exported = new java.util.TreeSet<>();
        for (String line : NativeBuild.run("nm", "-D", "--defined-only", DEBIAN_RCCL.resolve("librccl.so.1.0").toString())) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 3 && f[2].startsWith("nccl")) {
                exported.add(f[2].replaceAll("@.*", ""));
            }
        }
        assertEquals(RcclHeader.publicFunctions().keySet(), exported);
    }

    @Test
    void theSystemSonameIsFoundThroughTheLoaderSearchPath() {
        Rccl.load();
        assertEquals(RcclLibraryLocator.Source.SYSTEM_SONAME, RcclLibraryLocator.loaded().orElseThrow().source());
        assertEquals("system soname librccl.so.1", Rccl.library());
    }

    @Test
    void ncclLibraryOverridesTheSystemLibrary(@TempDir Path dir) throws Exception {
        Path override = linkedCopy(dir.resolve("override"), "librccl.so.1.0", "librccl-custom.so");
        String out = probe(Map.of("NCCL_LIBRARY", override.toString()));
        assertTrue(out.contains("loaded=NCCL_LIBRARY=" + override), out);
        assertTrue(out.contains("version=22707"), out);
        assertTrue(out.contains("mapped=" + override), out);
        assertTrue(!out.contains("mapped=" + DEBIAN_RCCL), "the system librccl must not be loaded too:\n" + out);
    }

    @Test
    void aBrokenOverrideIsAnErrorNotAFallBack(@TempDir Path dir) throws Exception {
        String missing = dir.resolve("nowhere/librccl.so.1").toString();
        String out = probe(Map.of("NCCL_LIBRARY", missing));
        assertTrue(out.contains("error=cannot load RCCL: RCCL library not found; tried NCCL_LIBRARY=" + missing), out);
    }

    @Test
    void rocmPathIsTheLastResort(@TempDir Path dir) throws Exception {
        // The loader path lacks the system librccl; ROCM_PATH/lib has it (its ROCm SMI dependency is on the path).
        linkedCopy(dir.resolve("rocm/lib"), "librccl.so.1.0", "librccl.so.1");
        Path smi = linkedCopy(dir.resolve("smi"), "librocm_smi64.so.7", "librocm_smi64.so.7").getParent();
        String out = probeWithLibraryPath(Map.of("ROCM_PATH", dir.resolve("rocm").toString()), smi.toString());
        assertTrue(out.contains("loaded=$ROCM_PATH/lib: " + dir.resolve("rocm/lib/librccl.so.1")), out);
        assertTrue(out.contains("version=22707"), out);
    }

    /** A hard link (same file, another path: /proc/self/maps shows which path was opened). */
    private static Path linkedCopy(Path directory, String source, String name) throws IOException {
        Files.createDirectories(directory);
        Path link = directory.resolve(name);
        Files.createLink(link, DEBIAN_RCCL.resolve(source).toRealPath());
        return link;
    }

    /** Through the sid wrapper, whose library path holds the system librccl. */
    private static String probe(Map<String, String> env) throws Exception {
        List<String> command = new ArrayList<>(List.of(SID.resolve("jvm/bin/java").toString()));
        return run(command, env);
    }

    /** Like the sid wrapper, but with our own library search path. */
    private static String probeWithLibraryPath(Map<String, String> env, String extraLibraryDir) throws Exception {
        String jdk = System.getProperty("java.home");
        String libs = String.join(":", SID.resolve("usr/lib/x86_64-linux-gnu").toString(),
                SID.resolve("lib/x86_64-linux-gnu").toString(), jdk + "/lib", jdk + "/lib/server", extraLibraryDir);
        List<String> command = new ArrayList<>(List.of(SID.resolve("usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2")
                .toString(), "--library-path", libs, jdk + "/bin/java"));
        return run(command, env);
    }

    private static String run(List<String> command, Map<String, String> env) throws Exception {
        command.addAll(org.rocshmem.api.launch.PeJob.inheritedSystemProperties());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), RcclDiscoveryProbe.class.getName()));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().remove("NCCL_LIBRARY");
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] output = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe JVM did not finish");
        String text = new String(output, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), text);
        return text;
    }

    private static int nonZero(byte[] bytes) {
        int n = 0;
        for (byte b : bytes) {
            n += b != 0 ? 1 : 0;
        }
        return n;
    }
}
