package org.rocshmem.api;

import static org.rocshmem.global.hip.hipErrorNotReady;
import static org.rocshmem.global.hip.hipStreamCreate;
import static org.rocshmem.global.hip.hipStreamDestroy;
import static org.rocshmem.global.hip.hipStreamQuery;
import static org.rocshmem.global.hip.hipStreamSynchronize;
import static org.rocshmem.global.hip.hipSuccess;

import org.rocshmem.hip.ihipStream_t;

/**
 * A HIP stream ({@code hipStream_t}) for the stream-ordered rocSHMEM calls ({@code *_on_stream}). Work enqueued
 * on it runs in order, asynchronously to the host; {@link #synchronize()} waits for it. {@link #NULL} is the
 * device's default (null) stream, which needs no creation and is never destroyed.
 */
public final class HipStream implements AutoCloseable {
    /** The null stream: synchronizes with all other blocking streams of the device. */
    public static final HipStream NULL = new HipStream(null, false);

    private final ihipStream_t handle;
    private final boolean owned;
    private volatile boolean closed;

    private HipStream(ihipStream_t handle, boolean owned) {
        this.handle = handle;
        this.owned = owned;
    }

    /** Creates a stream on the current HIP device ({@code hipStreamCreate}). */
    public static HipStream create() {
        ihipStream_t handle = new ihipStream_t();
        Hip.check(hipStreamCreate(handle), "hipStreamCreate");
        return new HipStream(handle, true);
    }

    /** Wraps a stream created elsewhere (e.g. by another library); {@link #close()} will not destroy it. */
    public static HipStream wrap(ihipStream_t handle) {
        return new HipStream(handle, false);
    }

    /** The native handle, {@code null} for {@link #NULL}. */
    public ihipStream_t handle() {
        requireOpen();
        return handle;
    }

    /** The native address of the stream ({@code hipStream_t}); 0 for {@link #NULL}. */
    public long address() {
        requireOpen();
        return handle == null ? 0 : handle.address();
    }

    /**
     * Enqueues a wait until element {@code index} of this PE's {@code signals} satisfies {@code element cmp value}
     * (rocshmem_signal_wait_until_on_stream): work enqueued after it runs only then.
     */
    @CallsNative("rocshmem_signal_wait_until_on_stream")
    public HipStream waitSignal(SymmetricLongs signals, long index, Compare cmp, long value) {
        long word = signals.local(index);
        AddressCalls.rocshmem_signal_wait_until_on_stream(word, cmp.code, value, address());
        return this;
    }

    /** Blocks until all work enqueued so far has completed ({@code hipStreamSynchronize}). */
    public void synchronize() {
        Hip.check(hipStreamSynchronize(handle()), "hipStreamSynchronize");
    }

    /** True if all enqueued work has completed, false if some is still pending ({@code hipStreamQuery}). */
    public boolean isIdle() {
        int status = hipStreamQuery(handle());
        if (status == hipErrorNotReady) {
            return false;
        }
        Hip.check(status, "hipStreamQuery");
        return status == hipSuccess;
    }

    public boolean isClosed() {
        return closed;
    }

    /** Destroys a created stream (idempotent); pending work still completes, as with {@code hipStreamDestroy}. */
    @Override
    public synchronized void close() {
        if (closed || this == NULL) {
            return;
        }
        closed = true;
        if (owned) {
            Hip.check(hipStreamDestroy(handle), "hipStreamDestroy");
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new RocshmemStateException("this HipStream was closed");
        }
    }

    @Override
    public String toString() {
        return this == NULL ? "HipStream[null stream]" : "HipStream[" + handle + (closed ? ", closed" : "") + "]";
    }
}
