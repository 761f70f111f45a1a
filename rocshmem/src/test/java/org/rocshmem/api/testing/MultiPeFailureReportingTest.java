package org.rocshmem.api.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs {@link FailingPeScenario} through a nested JUnit Platform launcher and checks the verdicts and messages
 * the harness produces, so deliberately failing PEs do not turn this suite red.
 */
@Timeout(90)
class MultiPeFailureReportingTest {

    @Test
    void failingPeFailsTheTestWithItsRankStatusStackTraceAndOutput() {
        FailingPeScenario.orchestratorLifecycleCalls = 0;
        TestExecutionResult result = runScenario(selectMethod(FailingPeScenario.class, "failsOnRankOne",
                "org.junit.jupiter.api.TestInfo"));

        assertEquals(TestExecutionResult.Status.FAILED, result.getStatus());
        String message = result.getThrowable().orElseThrow().getMessage();
        assertTrue(message.startsWith("@MultiPe(2) " + FailingPeScenario.class.getName() + "#failsOnRankOne failed: "
                + "PE 1 (pid "), message);
        assertTrue(message.contains("--- PE 1 (pid "), message);
        assertTrue(message.contains("exit status 1, failed ---"), message);
        assertTrue(message.contains("java.lang.IllegalStateException: deliberate failure on rank 1"), message);
        assertTrue(message.contains("at " + FailingPeScenario.class.getName() + ".failsOnRankOne("), message);
        assertTrue(message.contains("| rank 1 about to fail in failsOnRankOne(TestInfo)"), message);
        assertTrue(message.contains("--- PE 0 (pid "), message);
        assertTrue(message.contains("stopped after the failure ---"), message);
        assertEquals(0, FailingPeScenario.orchestratorLifecycleCalls,
                "@BeforeEach/@AfterEach must not run in the orchestrating JVM");
    }

    @Test
    void everyFailingPeIsReported() {
        TestExecutionResult result = runScenario(selectMethod(FailingPeScenario.class, "assertionFailsOnEveryRank"));

        assertEquals(TestExecutionResult.Status.FAILED, result.getStatus());
        String message = result.getThrowable().orElseThrow().getMessage();
        // The first PE to exit fails the run; its sibling either failed too or was stopped, both are listed.
        assertTrue(message.contains("rank mismatch ==> expected: <-1> but was: <"), message);
        assertTrue(message.contains("--- PE 0 (pid ") && message.contains("--- PE 1 (pid "), message);
    }

    @Test
    void hangingPesAreStoppedAtTheTimeoutAndTheirOutputShown() {
        long start = System.nanoTime();
        TestExecutionResult result = runScenario(selectMethod(FailingPeScenario.class, "hangsOnEveryRank"));
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

        assertEquals(TestExecutionResult.Status.FAILED, result.getStatus());
        String message = result.getThrowable().orElseThrow().getMessage();
        assertTrue(message.contains("failed: timeout after 5000 ms; stopped 2 running PE(s)"), message);
        assertTrue(message.contains("stopped at the timeout ---"), message);
        assertTrue(message.contains("| rank 1 hanging"), message);
        assertTrue(elapsedMillis < 5_000 + 10_000, "took " + elapsedMillis + " ms");
    }

    @Test
    void scenariosStayDisabledInTheNormalSuite() {
        Map<String, TestExecutionResult> results = new HashMap<>();
        Map<String, String> skipped = new HashMap<>();
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(FailingPeScenario.class)).build(), new TestExecutionListener() {
                    @Override
                    public void executionSkipped(TestIdentifier id, String reason) {
                        skipped.put(id.getDisplayName(), reason);
                    }

                    @Override
                    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                        results.put(id.getDisplayName(), result);
                    }
                });
        assertTrue(skipped.containsKey(FailingPeScenario.class.getSimpleName()), skipped.toString());
    }

    private static TestExecutionResult runScenario(DiscoverySelector selector) {
        Map<String, TestExecutionResult> tests = new HashMap<>();
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(selector)
                .configurationParameter(ScenarioOnly.PARAMETER, "true")
                .build(), new TestExecutionListener() {
                    @Override
                    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                        if (id.isTest()) {
                            tests.put(id.getUniqueId(), result);
                        }
                    }
                });
        assertEquals(1, tests.size(), "exactly one scenario test must run: " + tests.keySet());
        return tests.values().iterator().next();
    }
}
