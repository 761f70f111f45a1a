package org.rocshmem.api;

import java.text.MessageFormat;

/**
 * Logs warnings through System.Logger, except while the JVM shuts down: java.util.logging (the default
 * System.Logger backend) resets its handlers in its own shutdown hook, so what the finalize-at-exit hook logs
 * would be lost. Then the text goes straight to stderr.
 */
final class Warnings {
    private static volatile boolean shuttingDown;

    private Warnings() {
    }

    static void shutdownStarted() {
        shuttingDown = true;
    }

    static void log(System.Logger logger, System.Logger.Level level, String pattern, Object... args) {
        if (shuttingDown) {
            System.err.println("rocshmem " + level + ": " + MessageFormat.format(pattern, args));
            System.err.flush();
        } else {
            logger.log(level, pattern, args);
        }
    }
}
