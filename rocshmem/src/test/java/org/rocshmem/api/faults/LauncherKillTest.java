package org.rocshmem.api.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.rocshmem.api.launch.Launcher;
import org.rocshmem.api.launch.PeJob;

/**
 * The launcher SIGKILLed (no hook of it can run) while its PEs synchronize, or while PE 0 waits in init for a PE
 * that has not started: every PE JVM is gone within 2 s, and so is every shared-memory object, swept by the PEs'
 * watchdogs.
 */
@Tag("emu")
@Timeout(90)
class LauncherKillTest {
    private static final Pattern PID = Pattern.compile("^\\[PE (\\d)\\] pid=(\\d+)$");

    @ParameterizedTest(name = "launcher killed: {0}")
    @ValueSource(strings = {"launcher-running", "launcher-init"})
    void pesDieWithinTwoSecondsAndLeaveNothing(String moment) throws Exception {
        Path shmDir = FaultJob.privateShmDir();
        try {
            killLauncherAndCheck(moment, shmDir);
        } finally {
            FaultJob.deleteRecursively(shmDir);
        }
    }

    private static void killLauncherAndCheck(String moment, Path shmDir) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(PeJob.inheritedSystemProperties());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Launcher.class.getName(), "--nproc", "2",
                "--", FaultyPe.class.getName(), moment, "none"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("ROCSHMEM_EMU_SHM_DIR", shmDir.toString());
        builder.environment().put("ROCSHMEM_HEAP_SIZE", "16M");
        Process launcher = builder.start();
        List<Long> pids = new ArrayList<>();
        StringBuilder output = new StringBuilder();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(launcher.getInputStream()))) {
            // Running: both PEs synchronize in a loop. In init: PE 0 is inside init, PE 1 sleeps before it.
            String readyLine = moment.equals("launcher-running") ? "] READY" : "] INIT-START";
            int ready = 0;
            while (ready < (moment.equals("launcher-running") ? 2 : 1) || pids.size() < 2) {
                String line = out.readLine();
                assertTrue(line != null, "the launcher ended early:\n" + output);
                output.append(line).append('\n');
                Matcher pid = PID.matcher(line);
                if (pid.matches()) {
                    pids.add(Long.parseLong(pid.group(2)));
                }
                if (line.contains(readyLine) && (moment.equals("launcher-running") || line.startsWith("[PE 0]"))) {
                    ready++;
                }
            }
            if (moment.equals("launcher-init")) {
                waitForObjects(shmDir); // PE 0 created its control segment and heap: they must not stay
            }
            launcher.destroyForcibly();
            assertTrue(launcher.waitFor(10, TimeUnit.SECONDS), "the launcher did not die");
        }
        long killed = System.nanoTime();
        while (pids.stream().anyMatch(LauncherKillTest::alive) && System.nanoTime() - killed < 10_000_000_000L) {
            Thread.sleep(20);
        }
        long millis = (System.nanoTime() - killed) / 1_000_000;
        for (long pid : pids) {
            assertFalse(alive(pid), "PE pid " + pid + " outlived its launcher\n" + output);
        }
        assertTrue(millis < 2_000, "the PEs outlived their launcher by " + millis + " ms\n" + output);
        List<String> left;
        try (Stream<Path> entries = Files.list(shmDir)) {
            left = entries.map(p -> p.getFileName().toString()).toList();
        }
        assertEquals(List.of(), left, "objects left behind\n" + output);
    }

    private static void waitForObjects(Path dir) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.count() >= 2) {
                    return;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("PE 0 never created its objects in " + dir);
    }

    private static boolean alive(long pid) {
        return ProcessState.running(pid);
    }
}
