package org.rocshmem.api.testing;

import org.rocshmem.api.bootstrap.LaunchEnvironment;

/**
 * Hook run inside each PE JVM around the test (outside {@code @BeforeEach}/{@code @AfterEach}), e.g. to call
 * rocSHMEM init before and finalize after. Implementations need a public no-argument constructor.
 */
public interface PeLifecycle {

    /** Runs before the test; an exception fails this PE without running the test. */
    default void beforeTest(LaunchEnvironment env) throws Exception {
    }

    /** Runs after the test, even if it failed; an exception fails this PE. */
    default void afterTest(LaunchEnvironment env, boolean testPassed) throws Exception {
    }

    /** The default: nothing around the test. */
    final class None implements PeLifecycle {
    }
}
