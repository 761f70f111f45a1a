package org.rocshmem.api.launch;

import java.io.IOException;
import java.io.PrintStream;

/**
 * Command-line launcher (torchrun-like) starting N PE JVMs on this node, optionally grouped into K simulated nodes
 * ({@code --nnodes K}: LOCAL_RANK and LOCAL_WORLD_SIZE describe the PE's node, which the CPU emulator takes as its
 * {@code ROCSHMEM_TEAM_SHARED}); run it with {@code --help} for the options. Exit status: 0 if all PEs succeed, else
 * the first failing PE's status, 124 on timeout, 2 on a bad command line. A PE that the emulator stopped because
 * another PE failed (status 71) is not taken for the first failure while that other PE is still exiting: the
 * launcher waits for it (up to 5 s; any other status is reported at once), so the status and the summary line ({@code launcher: PE 1 (pid …) exited with
 * status 1: java.lang.X: message}) name the PE that failed and, when its JVM reported one, its uncaught exception.
 * For programmatic use see {@link PeJob}.
 */
public final class Launcher {
    /** Exit status for an invalid command line (same as most Unix tools). */
    public static final int USAGE_STATUS = 2;
    /** Exit status when the PEs could not even be started. */
    public static final int START_FAILURE_STATUS = 1;

    private Launcher() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the launcher and returns its exit status instead of exiting (testable). */
    static int run(String[] args, PrintStream out, PrintStream err) {
        PeJob job;
        try {
            PeJob.Builder builder = LauncherArguments.parse(args);
            if (builder == null) {
                out.println(LauncherArguments.USAGE);
                return 0;
            }
            job = builder.echoTo(out, err).build();
        } catch (UsageException e) {
            err.println("launcher: " + e.getMessage());
            err.println(LauncherArguments.USAGE);
            return USAGE_STATUS;
        }
        try {
            LaunchResult result = job.run();
            if (!result.succeeded()) {
                err.println("launcher: " + result.reason());
            }
            return result.exitStatus();
        } catch (IOException e) {
            err.println("launcher: cannot start PEs: " + e.getMessage());
            return START_FAILURE_STATUS;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("launcher: interrupted");
            return START_FAILURE_STATUS;
        }
    }
}
