package org.rocshmem.api.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocshmem.api.launch.LaunchResult;
import org.rocshmem.api.launch.PeJob;
import org.rocshmem.api.launch.PeResult;

/**
 * A kernel that faults (a null dereference in block 1) ends the job: the launcher's status is non-zero, the
 * message names the kernel, no PE goes on past the fault, and nothing of the job is left in /dev/shm.
 */
@Tag("emu")
@Timeout(180)
class KernelFaultTest {

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {2, 4})
    void aFaultingKernelEndsTheJob(int nproc) throws Exception {
        LaunchResult result = PeJob.builder(FaultingKernelPe.class).nproc(nproc)
                .jvmArgs(PeJob.inheritedSystemProperties()).timeout(Duration.ofSeconds(120))
                .env("ROCSHMEM_HEAP_SIZE", "16M").stopGrace(Duration.ofSeconds(2)).quiet().build().run();
        StringBuilder all = new StringBuilder(result.toString()).append('\n');
        for (PeResult pe : result.pes()) {
            pe.stdout().forEach(line -> all.append("PE ").append(pe.rank()).append(" out: ").append(line).append('\n'));
            pe.stderr().forEach(line -> all.append("PE ").append(pe.rank()).append(" err: ").append(line).append('\n'));
        }
        assertFalse(result.succeeded(), all.toString());
        assertFalse(result.timedOut(), "the job hung\n" + all);
        assertTrue(result.exitStatus() != 0, all.toString());
        PeResult victim = result.pes().get(nproc - 1);
        assertTrue(victim.stderr().stream().anyMatch(line -> line.contains("kernel 'faulting'")),
                "the victim's message names the kernel\n" + all);
        assertFalse(all.toString().contains("STALE"), "a PE went on past the fault\n" + all);
        List<String> left = new ArrayList<>();
        try (Stream<Path> entries = Files.list(Path.of("/dev/shm"))) {
            entries.map(p -> p.getFileName().toString()).filter(name -> name.startsWith("rocshmem-emu-"))
                    .filter(name -> result.pes().stream().anyMatch(pe -> name.contains("-" + pe.pid() + "-")))
                    .forEach(left::add);
        }
        assertEquals(List.of(), left, "objects of the job left in /dev/shm\n" + all);
    }
}
