package org.rocshmem.api.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A PE that leaves the job early is the failure the launcher reports (issue 17 item 3, issue 21 item 5): its own
 * exception, with its stack trace, and the launcher's summary naming that PE, its status and its exception; never
 * a survivor's status 71 or a collective mismatch that the early close would cause.
 */
@Tag("emu")
class LeavingPeTest {
    private static final String PROGRAM = LeavingPe.class.getName();

    private static LauncherRun launch(String mode) {
        List<String> args = new ArrayList<>(List.of("--nproc", "2", "--timeout", "60"));
        for (String property : PeJob.inheritedSystemProperties()) {
            args.add("--jvm-arg");
            args.add(property);
        }
        // small and quick PE JVMs: the start-up is most of each run
        for (String option : List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto")) {
            args.add("--jvm-arg");
            args.add(option);
        }
        args.addAll(List.of("--", PROGRAM, mode));
        return LauncherRun.of(args.toArray(String[]::new));
    }

    @Test
    @Timeout(90)
    void anExceptionInsideTryWithResourcesIsWhatTheUserSees() {
        LauncherRun run = launch("throw");
        String err = run.stderr();
        assertEquals(1, run.status(), err);
        String uncaught = "Exception in thread \"main\" java.lang.IndexOutOfBoundsException: PE 5 is outside [0, n_pes=2)";
        assertTrue(err.contains("[PE 1] " + uncaught), "PE 1's own exception\n" + err);
        assertTrue(err.contains("[PE 1] \tat org.rocshmem.api.launch.LeavingPe.main(LeavingPe.java"),
                "with its stack trace\n" + err);
        assertFalse(err.contains("collective mismatch") || err.contains("rocshmem_free"),
                "the exceptional close made a collective call\n" + err);
        assertTrue(err.contains("launcher: PE 1 (pid ") && err.contains(") exited with status 1: "
                + "java.lang.IndexOutOfBoundsException: PE 5 is outside [0, n_pes=2)"), "summary line\n" + err);
        int firstPe1Line = err.indexOf("[PE 1] ");
        assertEquals(err.indexOf("[PE 1] " + uncaught), firstPe1Line, "the exception is PE 1's first report\n" + err);
        assertFalse(run.stdout().contains("PASSED"), run.stdout());
    }

    /** 20 runs: the race between PE 1's JVM exit and PE 0's status 71 must never let the survivor win. */
    @Test
    @Timeout(300)
    void theLauncherAlwaysReportsThePeThatLeftNotTheSurvivor() {
        for (int i = 0; i < 20; i++) {
            LauncherRun run = launch("exit");
            assertEquals(4, run.status(), "run " + i + "\n" + run.stderr());
            assertTrue(run.stderr().contains("launcher: PE 1 (pid ") && run.stderr().contains("exited with status 4"),
                    "run " + i + "\n" + run.stderr());
        }
    }
}
