package org.rocshmem.api.launch;

import java.util.List;

/**
 * Outcome of one PE process.
 *
 * @param exitStatus        process exit status (128+signal when killed by a signal)
 * @param stoppedByLauncher true if the launcher killed it after another PE failed or the timeout expired
 * @param stdout            captured stdout lines without prefix (the last {@link PeJob#capturedLines()} only)
 * @param stderr            captured stderr lines without prefix (same limit)
 */
public record PeResult(int rank, long pid, int exitStatus, boolean stoppedByLauncher,
                       List<String> stdout, List<String> stderr) {
    public PeResult {
        stdout = List.copyOf(stdout);
        stderr = List.copyOf(stderr);
    }

    public boolean succeeded() {
        return exitStatus == 0;
    }
}
