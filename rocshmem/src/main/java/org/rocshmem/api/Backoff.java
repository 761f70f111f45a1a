package org.rocshmem.api;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Pacing of the host-side timed waits, which poll {@code test}: spin first (a flag usually flips within
 * microseconds), then yield, then park with a growing pause of at most 1 ms. No allocation.
 */
final class Backoff {
    private static final long MAX_PARK_NANOS = 1_000_000;

    private Backoff() {
    }

    /** The System.nanoTime() deadline {@code timeout} from now (saturated for durations too long to count). */
    static long deadline(Duration timeout) {
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, got " + timeout);
        }
        long now = System.nanoTime();
        try {
            return Math.addExact(now, timeout.toNanos());
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    static boolean expired(long deadline) {
        return deadline != Long.MAX_VALUE && System.nanoTime() - deadline >= 0;
    }

    /** Pauses after the {@code polls}-th unsuccessful poll. */
    static void pause(int polls) {
        if (polls < 64) {
            Thread.onSpinWait();
        } else if (polls < 128) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(Math.min(MAX_PARK_NANOS, 1_000L << Math.min(polls - 128, 10)));
        }
    }

    static WaitTimeoutException timeout(SymmetricArray view, long index, Compare cmp, Object value, Object current,
                                        Duration timeout) {
        return new WaitTimeoutException("waitUntil timed out after " + timeout + ": element " + index + " of " + view
                + " is " + current + ", waited for " + cmp + " " + value, index);
    }
}
