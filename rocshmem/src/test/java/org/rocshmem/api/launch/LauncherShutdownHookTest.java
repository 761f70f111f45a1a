package org.rocshmem.api.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Killing the launcher process (SIGTERM) must not leave its PEs running. */
@Timeout(60)
class LauncherShutdownHookTest {

    @Test
    void terminatingTheLauncherStopsItsChildren() throws Exception {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Process launcher = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                Launcher.class.getName(), "--nproc", "2", "--", PeProgram.class.getName(), "sleep")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<Long> pids = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(launcher.getInputStream()))) {
            while (pids.size() < 2) {
                String line = out.readLine();
                assertTrue(line != null, "launcher ended before both PEs reported their pid");
                pids.addAll(LauncherRun.numbers(line, "pid"));
            }
            launcher.destroy(); // SIGTERM: runs the launcher's shutdown hook
            assertTrue(launcher.waitFor(15, TimeUnit.SECONDS), "launcher did not exit");
        }
        assertEquals(2, pids.size());
        LauncherSupervisionTest.assertNoneAlive(pids);
    }
}
