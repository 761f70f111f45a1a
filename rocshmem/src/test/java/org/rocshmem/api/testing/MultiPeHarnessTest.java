package org.rocshmem.api.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.bootstrap.LaunchEnvironment;

/** The harness's positive contract; its failure reporting is checked in {@link MultiPeFailureReportingTest}. */
class MultiPeHarnessTest {
    private static final String LIFECYCLE_PROPERTY = "multipe.harness.test.lifecycle";

    private String preparedBy;

    @BeforeEach
    void prepare() {
        preparedBy = System.getenv("RANK");
    }

    @Test
    @MultiPe(3)
    void bodyRunsOncePerPeInDistinctJvms() throws Exception {
        LaunchEnvironment env = Pe.environment();
        Pe.publish("who", env.rank() + ":" + ProcessHandle.current().pid());

        List<String> all = Pe.collect("who", Duration.ofSeconds(30));
        List<String> ranks = all.stream().map(s -> s.split(":")[0]).toList();
        Set<String> pids = all.stream().map(s -> s.split(":")[1]).collect(Collectors.toSet());
        assertEquals(List.of("0", "1", "2"), ranks);
        assertEquals(3, pids.size(), "each PE must be its own JVM: " + all);
        assertEquals(3, env.worldSize());
        assertNotEquals(ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L),
                ProcessHandle.current().pid());
    }

    @Test
    @MultiPe(2)
    void beforeEachRunsInsideEachPe() {
        assertEquals(System.getenv("RANK"), preparedBy, "@BeforeEach must run in the PE JVM");
        assertTrue(Pe.isChild());
    }

    /** Stands in for rocSHMEM init/finalize: proves the hook runs in the PE before the body. */
    public static final class RecordingLifecycle implements PeLifecycle {
        @Override
        public void beforeTest(LaunchEnvironment env) {
            System.setProperty(LIFECYCLE_PROPERTY, "initialized rank " + env.rank());
        }
    }

    @Test
    @MultiPe(value = 2, lifecycle = RecordingLifecycle.class, jvmArgs = "-Dmultipe.harness.test.jvmArg=yes")
    void lifecycleHookAndJvmArgsReachThePe() {
        assertEquals("initialized rank " + Pe.rank(), System.getProperty(LIFECYCLE_PROPERTY));
        assertEquals("yes", System.getProperty("multipe.harness.test.jvmArg"));
    }

    @Test
    void plainTestsInTheSameClassRunInThisJvm() {
        assertTrue(!Pe.isChild() && System.getProperty(LIFECYCLE_PROPERTY) == null);
    }
}
