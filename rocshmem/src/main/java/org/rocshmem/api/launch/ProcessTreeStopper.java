package org.rocshmem.api.launch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Stops process trees: polite destroy first, then destroyForcibly for whatever outlives the grace period. */
final class ProcessTreeStopper {
    /** How long to wait for the kernel to reap processes after SIGKILL. */
    private static final Duration AFTER_KILL_WAIT = Duration.ofSeconds(2);

    private ProcessTreeStopper() {
    }

    static void stop(Collection<ProcessHandle> roots, Duration grace) {
        // Snapshot descendants while the roots are alive: once a root dies its children are re-parented
        // and can no longer be found from here.
        List<ProcessHandle> all = new ArrayList<>();
        for (ProcessHandle root : roots) {
            root.descendants().forEach(all::add);
            all.add(root);
        }
        all.forEach(ProcessHandle::destroy);
        if (!awaitExit(all, grace)) {
            all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
            awaitExit(all, AFTER_KILL_WAIT);
        }
    }

    private static boolean awaitExit(List<ProcessHandle> processes, Duration limit) {
        CompletableFuture<?>[] exits = processes.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(exits).get(limit.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
