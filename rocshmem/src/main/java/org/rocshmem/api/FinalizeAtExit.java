package org.rocshmem.api;

import java.time.Duration;

/**
 * JVM shutdown hook for a session the program did not close. What it does depends on how the program ends:
 * <ul>
 * <li><b>Normal end</b> (the thread that initialized rocSHMEM returned): the program merely forgot
 *     {@code close()}; the hook finalizes, collectively, so the other PEs are not left waiting in their finalize.
 *     Bounded: finalize needs every PE, so after {@value #TIMEOUT_PROPERTY} seconds (default 10) the hook gives up
 *     and lets the JVM exit.</li>
 * <li><b>Abnormal end</b> ({@code System.exit} or a signal while that thread still runs, or an uncaught exception
 *     ended it): the other PEs are still in the middle of the program, so any collective call made now (free,
 *     barrier, finalize) would pair with one of theirs and let them pass it with data this PE never produced.
 *     The hook makes no collective call: it abandons the session (every later rocSHMEM call of this process
 *     throws) and, on the emulator, ends the job so every other PE stops at its next wait or collective with a
 *     message naming this PE. On a GPU the other PEs are released by the launcher or mpirun when this process
 *     exits non-zero.</li>
 * </ul>
 * An exception that propagates out of a try-with-resources block is handled earlier, by the closes on javac's
 * exceptional path: they leave the job in the same way ({@link ExceptionalClose}).
 */
final class FinalizeAtExit {
    static final String TIMEOUT_PROPERTY = "rocshmem.finalizeAtExitTimeoutSeconds";
    private static final System.Logger LOG = System.getLogger(FinalizeAtExit.class.getName());

    private final Thread hook;
    /** The thread that initialized rocSHMEM: whether it is still running tells a normal end from an abnormal one. */
    private final Thread initThread;
    private Thread.UncaughtExceptionHandler previousHandler;
    private volatile Throwable uncaught;

    FinalizeAtExit(Rocshmem session) {
        this.initThread = Thread.currentThread();
        this.hook = new Thread(() -> run(session), "rocshmem-finalize-at-exit");
    }

    void install() {
        previousHandler = initThread.getUncaughtExceptionHandler();
        Thread.UncaughtExceptionHandler previous = previousHandler;
        initThread.setUncaughtExceptionHandler((thread, error) -> {
            uncaught = error;
            previous.uncaughtException(thread, error); // unchanged behaviour: usually the stack trace on stderr
        });
        Runtime.getRuntime().addShutdownHook(hook);
    }

    void uninstall() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shutdownInProgress) {
            // close() ran during shutdown (e.g. from another hook): nothing to remove.
        }
        if (previousHandler != null) {
            // Without an own handler a thread reports to its group; restore exactly that.
            initThread.setUncaughtExceptionHandler(
                    previousHandler == initThread.getThreadGroup() ? null : previousHandler);
        }
    }

    /** Null when the program ended normally (the initializing thread returned); otherwise why it did not. */
    String abnormalEnd() {
        Throwable error = uncaught;
        if (error != null) {
            return "an uncaught " + error.getClass().getName() + " ended thread \"" + initThread.getName() + "\"";
        }
        if (initThread.isAlive()) {
            return "the JVM is exiting while thread \"" + initThread.getName() + "\", which initialized rocSHMEM, still"
                    + " runs (System.exit, a signal, or an error in another thread)";
        }
        return null;
    }

    private void run(Rocshmem session) {
        if (!session.isOpen()) {
            return;
        }
        Warnings.shutdownStarted();
        String abnormal = abnormalEnd();
        if (abnormal != null) {
            Warnings.log(LOG, System.Logger.Level.WARNING, "rocSHMEM was not finalized and the program ends abnormally:"
                    + " {0}. Leaving the job without finalize, so that no collective call of this PE pairs with the"
                    + " other PEs'' calls", abnormal);
            session.abandon();
            return;
        }
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
