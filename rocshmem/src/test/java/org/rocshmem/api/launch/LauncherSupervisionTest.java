package org.rocshmem.api.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The launcher's supervision contract, exercised through its command line with real child JVMs. */
@Timeout(60)
class LauncherSupervisionTest {
    private static final String PROGRAM = PeProgram.class.getName();

    @Test
    void firstFailingStatusBecomesLauncherStatusAndSiblingsAreStopped() {
        LauncherRun run = LauncherRun.of("--nproc", "3", "--", PROGRAM, "fail-on", "1", "3");

        assertEquals(3, run.status(), run.stderr());
        assertTrue(run.stderr().contains("launcher: PE 1 (pid "), run.stderr());
        assertTrue(run.stderr().contains("exited with status 3; stopped 2 other PE(s)"), run.stderr());
        List<Long> pids = run.numbers("pid");
        assertEquals(3, pids.size(), run.stdout());
        assertNoneAlive(pids);
        // PE 1 fails ~1.5 s after its start; the siblings must be gone well within the 10 s budget.
        assertTrue(run.elapsedMillis() < 1_500 + 10_000, "took " + run.elapsedMillis() + " ms");
    }

    @Test
    void timeoutExits124AndKillsGrandchildren() {
        LauncherRun run = LauncherRun.of("--nproc", "2", "--timeout", "3", "--", PROGRAM, "grandchild");

        assertEquals(124, run.status(), run.stderr());
        assertTrue(run.stderr().contains("launcher: timeout after 3000 ms; stopped 2 running PE(s)"), run.stderr());
        List<Long> grandchildren = run.numbers("grandchild");
        assertEquals(2, grandchildren.size(), run.stdout());
        assertNoneAlive(run.numbers("pid"));
        assertNoneAlive(grandchildren);
        assertTrue(run.elapsedMillis() < 3_000 + 10_000, "took " + run.elapsedMillis() + " ms");
    }

    @Test
    void aTimeoutTooLongToCountMeansNoTimeout() {
        LauncherRun run = LauncherRun.of("--nproc", "1", "--timeout", "1e10", "--", PROGRAM, "streams");

        assertEquals(0, run.status(), run.stderr()); // used to fail with ArithmeticException (nanoseconds overflow)
    }

    @Test
    void childOutputIsPrefixedWithRankAndStreamsStayApart() {
        LauncherRun run = LauncherRun.of("--nproc", "2", "--", PROGRAM, "streams");

        assertEquals(0, run.status(), run.stderr());
        assertEquals("", run.stderr().replaceAll("(?m)^\\[PE [01]\\] err-line\\R", ""),
                "stderr holds exactly the children's stderr lines");
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(run.stdout().contains("[PE " + rank + "] out-line"), run.stdout());
            assertTrue(run.stderr().contains("[PE " + rank + "] err-line"), run.stderr());
        }
        assertFalse(run.stdout().contains("err-line"), run.stdout());
    }

    static void assertNoneAlive(List<Long> pids) {
        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "pid " + pid + " is alive");
        }
    }
}
