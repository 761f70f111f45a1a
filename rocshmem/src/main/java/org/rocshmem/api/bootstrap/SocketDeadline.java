package org.rocshmem.api.bootstrap;

import java.io.IOException;
import java.net.Socket;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Closes a socket when its overall deadline passes. A read timeout only bounds each read, so a peer that sends one
 * byte at a time could hold a connection forever; closing the socket ends whatever read or write is blocked on it.
 */
final class SocketDeadline implements AutoCloseable {
    private static final ScheduledThreadPoolExecutor TIMER = new ScheduledThreadPoolExecutor(1, task -> {
        Thread thread = new Thread(task, "rocshmem-rendezvous-deadline");
        thread.setDaemon(true);
        return thread;
    });

    static {
        TIMER.setRemoveOnCancelPolicy(true);
    }

    private ScheduledFuture<?> closer;
    private volatile boolean expired;

    private SocketDeadline() {
    }

    /** Closes {@code socket} at {@code deadlineNanos} (System.nanoTime) unless this guard is closed first. */
    static SocketDeadline closeAt(Socket socket, long deadlineNanos) {
        long delay = Math.max(0, deadlineNanos - System.nanoTime());
        SocketDeadline guard = new SocketDeadline();
        guard.closer = TIMER.schedule(() -> {
            guard.expired = true;
            closeQuietly(socket);
        }, delay, TimeUnit.NANOSECONDS);
        return guard;
    }

    /** True once the deadline closed the socket: an error after that says nothing about the peer. */
    boolean expired() {
        return expired;
    }

    static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already broken: nothing left to release
        }
    }

    /** Milliseconds since {@code startNanos}, for messages that say how long something really took. */
    static long elapsedMillis(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000L;
    }

    @Override
    public void close() {
        closer.cancel(false);
    }
}
