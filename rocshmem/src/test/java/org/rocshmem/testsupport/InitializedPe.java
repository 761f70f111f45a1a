package org.rocshmem.testsupport;

import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.bootstrap.LaunchEnvironment;
import org.rocshmem.api.testing.PeLifecycle;

/** Initializes rocSHMEM in each PE JVM before the test body and finalizes after it (unless the test did). */
public final class InitializedPe implements PeLifecycle {
    @Override
    public void beforeTest(LaunchEnvironment env) {
        Rocshmem.init();
    }

    @Override
    public void afterTest(LaunchEnvironment env, boolean testPassed) {
        if (Rocshmem.isInitialized()) {
            Rocshmem.current().close();
        }
    }
}
