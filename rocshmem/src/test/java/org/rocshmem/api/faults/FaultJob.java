package org.rocshmem.api.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.rocshmem.api.launch.LaunchResult;
import org.rocshmem.api.launch.PeJob;
import org.rocshmem.api.launch.PeResult;

/**
 * One job of {@link FaultyPe} PEs with the checks every fault case shares: the job ends non-zero within
 * {@link #BOUND} of the fault, no PE saw stale data or passed the round the victim missed, no PE process is left,
 * and no shared-memory object is left, neither in the job's private ROCSHMEM_EMU_SHM_DIR nor in /dev/shm.
 */
final class FaultJob {
    static final Duration BOUND = Duration.ofSeconds(10);
    static final Path DEV_SHM = Path.of("/dev/shm");

    final LaunchResult result;
    final long endMillis;
    private final Path shmDir;

    private FaultJob(LaunchResult result, long endMillis, Path shmDir) {
        this.result = result;
        this.endMillis = endMillis;
        this.shmDir = shmDir;
    }

    /** A fresh private object directory on the tmpfs, so concurrent jobs of other users cannot interfere. */
    static Path privateShmDir() {
        try {
            return Files.createTempDirectory(DEV_SHM, "rocshmem-faults-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static FaultJob run(int nproc, Map<String, String> env, String... args) throws Exception {
        return run(privateShmDir(), nproc, env, args);
    }

    /** The same in /dev/shm itself, the default directory, shared with whatever else runs on the machine. */
    static FaultJob runInDevShm(int nproc, Map<String, String> env, String... args) throws Exception {
        return run(DEV_SHM, nproc, env, args);
    }

    private static FaultJob run(Path shmDir, int nproc, Map<String, String> env, String... args) throws Exception {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("ROCSHMEM_EMU_SHM_DIR", shmDir.toString());
        all.put("ROCSHMEM_HEAP_SIZE", "16M");
        all.put("ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT", "20");
        all.putAll(env);
        PeJob.Builder builder = PeJob.builder(FaultyPe.class).nproc(nproc).args(args)
                .jvmArgs(PeJob.inheritedSystemProperties()).timeout(Duration.ofSeconds(90))
                .stopGrace(Duration.ofSeconds(2)).quiet();
        all.forEach(builder::env);
        try {
            LaunchResult result = builder.build().run();
            return new FaultJob(result, System.currentTimeMillis(), shmDir);
        } catch (Exception | Error e) {
            if (!shmDir.equals(DEV_SHM)) {
                deleteRecursively(shmDir);
            }
            throw e;
        }
    }

    /** Every check of the suite; {@code missedRound} is the round no PE may pass ("" when none applies). */
    void assertEndedCleanly(String missedRound) throws IOException {
        try {
            checkEndedCleanly(missedRound);
        } finally {
            if (!shmDir.equals(DEV_SHM)) {
                deleteRecursively(shmDir);
            }
        }
    }

    private void checkEndedCleanly(String missedRound) throws IOException {
        String all = describe();
        assertFalse(result.succeeded(), "the job must end non-zero\n" + all);
        assertFalse(result.timedOut(), "the job hung until the launcher's timeout\n" + all);
        OptionalLong start = firstMarker("FAULT ");
        if (start.isEmpty()) {
            start = firstMarker("INIT-START "); // a fault inside init: it happened after every PE started init
        }
        assertTrue(start.isPresent(), "no FAULT or INIT-START line\n" + all);
        long millis = endMillis - start.getAsLong();
        assertTrue(millis < BOUND.toMillis(), "the job ended " + millis + " ms after the fault\n" + all);
        for (PeResult pe : result.pes()) {
            for (String line : pe.stdout()) {
                assertFalse(line.startsWith("STALE"), "PE " + pe.rank() + " acted on stale data: " + line + "\n" + all);
                assertFalse(!missedRound.isEmpty() && line.startsWith("PASSED") && line.contains(missedRound),
                        "PE " + pe.rank() + " passed the round the victim missed: " + line + "\n" + all);
            }
            assertFalse(ProcessState.running(pe.pid()),
                    "PE " + pe.rank() + " (pid " + pe.pid() + ") is still running\n" + all);
        }
        assertNoObjectsLeft(all);
    }

    private void assertNoObjectsLeft(String all) throws IOException {
        if (!shmDir.equals(DEV_SHM)) {
            List<String> left;
            try (Stream<Path> entries = Files.list(shmDir)) {
                left = entries.map(p -> p.getFileName().toString()).toList();
            }
            assertEquals(List.of(), left, "objects left in the job's ROCSHMEM_EMU_SHM_DIR\n" + all);
        }
        // Names carry the creator's pid: nothing of our PEs may appear in /dev/shm itself either.
        List<String> ours = new ArrayList<>();
        try (Stream<Path> entries = Files.list(DEV_SHM)) {
            entries.map(p -> p.getFileName().toString()).filter(name -> name.startsWith("rocshmem-emu-"))
                    .filter(name -> result.pes().stream().anyMatch(pe -> name.contains("-" + pe.pid() + "-")))
                    .forEach(ours::add);
        }
        assertEquals(List.of(), ours, "objects of this job's PEs in /dev/shm\n" + all);
    }

    private OptionalLong firstMarker(String prefix) {
        return result.pes().stream().flatMap(pe -> pe.stdout().stream()).filter(line -> line.startsWith(prefix))
                .mapToLong(line -> Long.parseLong(line.substring(prefix.length()).trim())).min();
    }

    String stderr() {
        StringBuilder text = new StringBuilder();
        result.pes().forEach(pe -> pe.stderr().forEach(line -> text.append(line).append('\n')));
        return text.toString();
    }

    String describe() {
        StringBuilder text = new StringBuilder("status " + result.exitStatus() + " (" + result.reason() + ")\n");
        for (PeResult pe : result.pes()) {
            text.append("--- PE ").append(pe.rank()).append(" pid ").append(pe.pid()).append(" status ")
                    .append(pe.exitStatus()).append(pe.stoppedByLauncher() ? " (stopped by the launcher)" : "")
                    .append('\n');
            pe.stdout().forEach(line -> text.append("  out: ").append(line).append('\n'));
            pe.stderr().forEach(line -> text.append("  err: ").append(line).append('\n'));
        }
        return text.toString();
    }

    static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
