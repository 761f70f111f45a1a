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
import org.rocshmem.api.faults.ProcessState;

/** Killing the launcher process, politely (SIGTERM) or not (SIGKILL), must not leave its PEs running. */
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

    @Test
    void killingTheLauncherOutrightStopsItsChildrenAndGrandchildrenWithinTwoSeconds() throws Exception {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Process launcher = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                Launcher.class.getName(), "--nproc", "2", "--", PeProgram.class.getName(), "grandchild")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<Long> pids = new ArrayList<>();
        List<Long> grandchildren = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(launcher.getInputStream()))) {
            while (grandchildren.size() < 2) {
                String line = out.readLine();
                assertTrue(line != null, "launcher ended before both PEs reported their pids");
                pids.addAll(LauncherRun.numbers(line, "pid"));
                grandchildren.addAll(LauncherRun.numbers(line, "grandchild"));
            }
            launcher.destroyForcibly(); // SIGKILL: no hook of the launcher runs; the PEs' watchdogs must act
            assertTrue(launcher.waitFor(10, TimeUnit.SECONDS), "launcher did not die");
            long killed = System.nanoTime();
            List<Long> all = new ArrayList<>(pids);
            all.addAll(grandchildren);
            // Exited counts, even while the orphan waits as a zombie for the machine's pid 1 to reap it.
            while (all.stream().anyMatch(ProcessState::running)
                    && System.nanoTime() - killed < TimeUnit.SECONDS.toNanos(5)) {
                Thread.sleep(20);
            }
            long millis = (System.nanoTime() - killed) / 1_000_000;
            for (long pid : all) {
                assertTrue(!ProcessState.running(pid), "pid " + pid + " outlived the launcher");
            }
            assertTrue(millis < 2_000, "the PEs outlived their launcher by " + millis + " ms");
        }
    }
}
