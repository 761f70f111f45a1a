package org.rocshmem.api;

import java.time.Duration;

/**
 * JVM shutdown hook that finalizes a session the program forgot to close, so the other PEs are not left waiting
 * in their finalize barrier. Bounded: finalize is collective and peers may already be gone, so after
 * {@value #TIMEOUT_PROPERTY} seconds (default 10) the hook gives up and lets the JVM exit.
 */
final class FinalizeAtExit {
    static final String TIMEOUT_PROPERTY = "rocshmem.finalizeAtExitTimeoutSeconds";
    private static final System.Logger LOG = System.getLogger(FinalizeAtExit.class.getName());

    private final Thread hook;

    FinalizeAtExit(Rocshmem session) {
        this.hook = new Thread(() -> run(session), "rocshmem-finalize-at-exit");
    }

    void install() {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    void uninstall() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shutdownInProgress) {
            // close() ran during shutdown (e.g. from another hook): nothing to remove.
        }
    }

    private static void run(Rocshmem session) {
        if (!session.isOpen()) {
            return;
        }
        Warnings.shutdownStarted();
        Warnings.log(LOG, System.Logger.Level.WARNING, "rocSHMEM was not finalized (Rocshmem.close() not called); "
                + "finalizing at JVM exit");
        Thread worker = new Thread(() -> {
            try {
                session.finalizeIfOpen();
            } catch (RuntimeException e) {
                Warnings.log(LOG, System.Logger.Level.ERROR, "finalize at JVM exit failed: {0}", e);
            }
        }, "rocshmem-finalize-worker");
        worker.setDaemon(true);
        worker.start();
        Duration timeout = timeout();
        try {
            worker.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (worker.isAlive()) {
            Warnings.log(LOG, System.Logger.Level.ERROR,
                    "finalize at JVM exit did not finish within {0} s (other PEs gone?); exiting without it",
                    timeout.toSeconds());
        }
    }

    private static Duration timeout() {
        String text = System.getProperty(TIMEOUT_PROPERTY, "10");
        try {
            return Duration.ofMillis(Math.max(1, Math.round(Double.parseDouble(text) * 1000)));
        } catch (NumberFormatException e) {
            return Duration.ofSeconds(10);
        }
    }
}
