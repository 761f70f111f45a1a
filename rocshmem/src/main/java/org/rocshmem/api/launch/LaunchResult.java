package org.rocshmem.api.launch;

import java.util.List;
import java.util.OptionalInt;

/**
 * Outcome of a whole job.
 *
 * @param exitStatus 0 if every PE exited 0; else the status of the first PE that failed (never a survivor's 71
 *                   while the PE that ended the job is still exiting); {@link #TIMEOUT_STATUS} if the timeout
 *                   expired first
 * @param reason     one line explaining a non-zero status ("" on success), with the failed PE's uncaught exception
 * @param failedRank rank of the first failing PE, -1 if none (or on timeout)
 * @param pes        one result per rank, in rank order
 */
public record LaunchResult(int exitStatus, String reason, int failedRank, boolean timedOut, List<PeResult> pes) {
    /** Same convention as coreutils {@code timeout}. */
    public static final int TIMEOUT_STATUS = 124;

    public LaunchResult {
        pes = List.copyOf(pes);
    }

    public boolean succeeded() {
        return exitStatus == 0;
    }

    public OptionalInt firstFailedRank() {
        return failedRank < 0 ? OptionalInt.empty() : OptionalInt.of(failedRank);
    }

    public PeResult pe(int rank) {
        return pes.get(rank);
    }
}
