package org.rocshmem.api.rccl;

import org.rocshmem.api.Bootstrap;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.bootstrap.LaunchEnvironment;
import org.rocshmem.api.testing.PeLifecycle;

/** Creates the job's communicator and a stream in each PE JVM before the test, closes both after it. */
public final class RcclPe implements PeLifecycle {
    private static Communicator comm;
    private static HipStream stream;

    public static Communicator comm() {
        return comm;
    }

    public static HipStream stream() {
        return stream;
    }

    @Override
    public void beforeTest(LaunchEnvironment env) {
        comm = Communicator.init(Bootstrap.launchEnvironment(env));
        stream = HipStream.create();
    }

    @Override
    public void afterTest(LaunchEnvironment env, boolean testPassed) {
        try {
            stream.close();
        } finally {
            if (testPassed) {
                comm.close();  // collective: only when every PE got through the test
            } else {
                comm.abort();
            }
        }
    }
}
