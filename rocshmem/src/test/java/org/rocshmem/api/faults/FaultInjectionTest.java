package org.rocshmem.api.faults;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A PE killed (SIGKILL), halted, throwing or SIGTERMed at init, mid-barrier, mid-collective and at finalize: the job
 * ends non-zero within 10 s, nobody acts on stale data, no process and no shared-memory object is left
 * (see {@link FaultJob}). The victim is the last PE; the others are in the middle of the moment when it faults.
 */
@Tag("emu")
@Timeout(120)
class FaultInjectionTest {

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (String moment : List.of("init", "barrier", "collective", "finalize")) {
            for (String fault : List.of("kill", "halt", "throw", "term")) {
                cases.add(Arguments.of(moment, fault));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{1} at {0}")
    @MethodSource("cases")
    void theJobEndsCleanly(String moment, String fault) throws Exception {
        Map<String, String> env = moment.equals("init")
                // Inside init the emulator commits the fault: after the victim joined, before it mapped the others.
                ? Map.of("ROCSHMEM_EMU_TEST_FAULT", "1:joined:" + Map.of("kill", "kill", "halt", "exit", "throw", "fail",
                        "term", "term").get(fault))
                : Map.of();
        FaultJob job = FaultJob.run(2, env, moment, fault);
        // init: the survivor may finish init (a SIGTERMed JVM takes a moment to go), but never a round.
        job.assertEndedCleanly(moment.equals("init") ? "round" : moment.equals("finalize") ? "" : "round 5");
    }

    /**
     * A PE that throws out of its try-with-resources after round 4 must never let another PE pass
     * the round-5 barrier with stale data. Its closes on the exceptional path make no collective call: it leaves the job, its own exception is what it reports, and the others stop in their barrier naming it.
     * Runs in /dev/shm itself: no object of the job's PEs may remain there.
     */
    @Test
    void aThrowAfterRoundFourNeverLetsAnotherPePassRoundFive() throws Exception {
        FaultJob job = FaultJob.runInDevShm(3, Map.of(), "barrier", "throw");
        job.assertEndedCleanly("round 5");
        String stderr = job.stderr();
        assertTrue(!stderr.contains("collective mismatch") && stderr.contains("PE 2 left the job without finalize")
                && stderr.contains("java.lang.IllegalStateException: deliberate fault of the victim PE"),
                "the victim's exception, and no collective on its way out\n" + job.describe());
        assertTrue(job.result.failedRank() == 2 && job.result.reason().contains("deliberate fault"),
                "the launcher names the victim\n" + job.describe());
        assertTrue(job.result.pes().stream().limit(2).allMatch(pe -> pe.stdout().stream()
                .anyMatch(line -> line.startsWith("PASSED barrier round 4"))), "rounds 1-4 must pass\n" + job.describe());
    }

    /** System.exit with the session open: the shutdown hook abandons the session instead of finalizing. */
    @Test
    void systemExitWithTheSessionOpenEndsTheJobWithoutACollective() throws Exception {
        FaultJob job = FaultJob.run(2, Map.of(), "barrier", "exit");
        job.assertEndedCleanly("round 5");
        assertTrue(job.stderr().contains("the program ends abnormally"), job.describe());
    }
}
