package org.rocshmem.api.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** Fixture run by {@link MultiPeFailureReportingTest}; every method here is meant to fail or abort. */
@ScenarioOnly
class FailingPeScenario {
    /** Counts lifecycle methods run in the orchestrating JVM; must stay 0 (the PEs own them). */
    static int orchestratorLifecycleCalls;

    @BeforeEach
    void before() {
        if (!Pe.isChild()) {
            orchestratorLifecycleCalls++;
        }
    }

    @AfterEach
    void after() {
        if (!Pe.isChild()) {
            orchestratorLifecycleCalls++;
        }
    }

    @Test
    @MultiPe(2)
    void failsOnRankOne(TestInfo info) throws InterruptedException {
        if (Pe.rank() == 1) {
            System.out.println("rank 1 about to fail in " + info.getDisplayName());
            throw new IllegalStateException("deliberate failure on rank 1");
        }
        Thread.sleep(Long.MAX_VALUE); // rank 0 hangs, as a PE waiting on a dead peer would
    }

    @Test
    @MultiPe(2)
    void assertionFailsOnEveryRank() {
        assertEquals(-1, Pe.rank(), "rank mismatch");
    }

    @Test
    @MultiPe(value = 2, timeoutSeconds = 5) // room for two JVMs to start JUnit on a loaded machine
    void hangsOnEveryRank() throws InterruptedException {
        System.out.println("rank " + Pe.rank() + " hanging");
        Thread.sleep(Long.MAX_VALUE);
    }
}
