package org.rocshmem.api.faults;

import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.bootstrap.LaunchEnvironment;
import org.rocshmem.api.testing.PeLifecycle;

/** Initializes rocSHMEM in each PE JVM before the test and finalizes after it. */
public final class SessionPerPe implements PeLifecycle {
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
