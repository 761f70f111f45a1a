package org.rocshmem.api.hip;

import static org.rocshmem.global.hip.hipLaunchHostFunc;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.bytedeco.javacpp.Pointer;
import org.rocshmem.hip.hipHostFn_t;

/**
 * The futures of one stream's {@link HipStream#completion()}s. Host functions run in stream order, so each call of
 * the stream's one callback belongs to the oldest pending future; no per-call native object is needed, and the
 * callback object lives as long as its stream.
 */
final class StreamCompletions {
    private final Queue<CompletableFuture<Void>> pending = new ConcurrentLinkedQueue<>();
    /** Made on first use: a stream object must not need native code until it is used. */
    private hipHostFn_t callback;

    private hipHostFn_t callback() {
        if (callback == null) {
            callback = new hipHostFn_t() {
                @Override
                public void call(Pointer userData) {
                    CompletableFuture<Void> done = pending.poll();
                    if (done != null) {
                        // never complete on the stream's own thread: a dependent stage calling HIP there could
                        // deadlock
                        done.completeAsync(() -> null);
                    }
                }
            };
        }
        return callback;
    }

    synchronized CompletableFuture<Void> enqueue(HipStream stream) {
        CompletableFuture<Void> future = new CompletableFuture<>();
        pending.add(future);
        int status = hipLaunchHostFunc(stream.handle(), callback(), null);
        if (status != 0) {
            pending.remove(future);
            HipException.check(status, "hipLaunchHostFunc");
        }
        return future;
    }

    boolean pending() {
        return !pending.isEmpty();
    }
}
