package org.rocshmem.api.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.rocshmem.api.launch.Launcher;
import org.rocshmem.api.launch.PeJob;

/**
 * Docker's 64 MiB /dev/shm, in small: a 16 MiB tmpfs mounted in a private mount namespace ({@code unshare -m}, or
 * {@code unshare -rm} without root), given to the emulator as ROCSHMEM_EMU_SHM_DIR. The default 1 GiB heap must
 * fail init with a Java exception naming ROCSHMEM_HEAP_SIZE, the free space and the fix, never a SIGBUS; a heap
 * that fits runs. Skipped, saying why, where no mount namespace can be made.
 */
@Tag("emu")
@Timeout(120)
class SmallShmTest {

    private static List<String> namespacePrefix() throws Exception {
        boolean root = "root".equals(System.getProperty("user.name"));
        for (List<String> unshare : root ? List.of(List.of("unshare", "-m"), List.of("unshare", "-rm"))
                : List.of(List.of("unshare", "-rm"))) {
            List<String> probe = new ArrayList<>(unshare);
            probe.add("true");
            try {
                Process p = new ProcessBuilder(probe).redirectErrorStream(true).start();
                if (p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    return unshare;
                }
            } catch (IOException noUnshare) {
                // try the next form
            }
        }
        return null;
    }

    /** The launcher with 2 FaultyPe PEs, inside a mount namespace where {@code dir} is a 16 MiB tmpfs. */
    private static Run launch(List<String> unshare, Path dir, String heapSize) throws Exception {
        List<String> command = new ArrayList<>(unshare);
        command.addAll(List.of("sh", "-c", "mount -t tmpfs -o size=16m tmpfs \"$0\" && exec \"$@\"", dir.toString()));
        command.add(ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(PeJob.inheritedSystemProperties());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Launcher.class.getName(), "--nproc", "2",
                "--timeout", "60", "--", FaultyPe.class.getName(), "barrier", "none"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("ROCSHMEM_EMU_SHM_DIR", dir.toString());
        if (heapSize != null) {
            builder.environment().put("ROCSHMEM_HEAP_SIZE", heapSize);
        } else {
            builder.environment().remove("ROCSHMEM_HEAP_SIZE");
        }
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(90, TimeUnit.SECONDS), output);
        return new Run(process.exitValue(), output);
    }

    record Run(int status, String output) {
    }

    @Test
    void theDefaultHeapOnASmallTmpfsFailsInitWithTheFixNotWithSigbus() throws Exception {
        List<String> unshare = namespacePrefix();
        Assumptions.assumeTrue(unshare != null, "no mount namespace available here (unshare -m / -rm refused): "
                + "cannot mount a small tmpfs");
        Path dir = Files.createTempDirectory("rocshmem-small-shm-");
        try {
            Run tooBig = launch(unshare, dir, null);
            String out = tooBig.output();
            assertNotEquals(0, tooBig.status(), out);
            assertNotEquals(128 + 7, tooBig.status(), "SIGBUS\n" + out);
            assertFalse(out.contains("SIGBUS") || out.contains("hs_err"), out);
            assertTrue(out.contains("org.rocshmem.api.RocshmemException"), "no Java exception\n" + out);
            for (String needed : List.of("do not fit in " + dir, "ROCSHMEM_HEAP_SIZE=1073741824", "16.0 MiB are free",
                    "--shm-size", "ROCSHMEM_EMU_SHM_DIR")) {
                assertTrue(out.contains(needed), "the exception does not mention '" + needed + "'\n" + out);
            }

            Run fits = launch(unshare, dir, "4M");
            assertEquals(0, fits.status(), fits.output());
            assertTrue(fits.output().contains("[PE 0] DONE") && fits.output().contains("[PE 1] DONE"), fits.output());
        } finally {
            FaultJob.deleteRecursively(dir);
        }
    }
}
