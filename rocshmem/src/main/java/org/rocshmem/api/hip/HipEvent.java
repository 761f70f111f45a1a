package org.rocshmem.api.hip;

import static org.rocshmem.global.hip.hipErrorNotReady;
import static org.rocshmem.global.hip.hipEventCreate;
import static org.rocshmem.global.hip.hipEventDestroy;
import static org.rocshmem.global.hip.hipEventElapsedTime;
import static org.rocshmem.global.hip.hipEventQuery;
import static org.rocshmem.global.hip.hipEventRecord;
import static org.rocshmem.global.hip.hipEventSynchronize;

import org.rocshmem.hip.ihipEvent_t;

/**
 * A point in a stream's work ({@code hipEvent_t}), recorded by {@link HipStream#record()}. Two events of a
 * stream time the work between them on the device's clock ({@link #millisSince}); one event tells when the work
 * before it is done ({@link #isComplete()}, {@link #synchronize()}).
 */
public final class HipEvent implements AutoCloseable {
    private final ihipEvent_t handle;
    private volatile boolean closed;

    private HipEvent(ihipEvent_t handle) {
        this.handle = handle;
    }

    /** Creates an event and records it on {@code stream} (hipEventCreate + hipEventRecord). */
    static HipEvent recordOn(HipStream stream) {
        ihipEvent_t handle = new ihipEvent_t();
        HipException.check(hipEventCreate(handle), "hipEventCreate");
        HipEvent event = new HipEvent(handle);
        int status = hipEventRecord(handle, stream.handle());
        if (status != 0) {
            event.close();
            HipException.check(status, "hipEventRecord(on " + stream + ")");
        }
        return event;
    }

    /** True once the work enqueued before this event has completed (hipEventQuery). */
    public boolean isComplete() {
        int status = hipEventQuery(handle());
        if (status == hipErrorNotReady) {
            return false;
        }
        HipException.check(status, "hipEventQuery");
        return true;
    }

    /** Blocks until the work enqueued before this event has completed (hipEventSynchronize). */
    public void synchronize() {
        HipException.check(hipEventSynchronize(handle()), "hipEventSynchronize");
    }

    /**
     * Milliseconds of device time from {@code start} to this event (hipEventElapsedTime). Both must be complete:
     * synchronize this event first.
     */
    public double millisSince(HipEvent start) {
        float[] ms = {0};
        HipException.check(hipEventElapsedTime(ms, start.handle(), handle()), "hipEventElapsedTime");
        return ms[0];
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            HipException.check(hipEventDestroy(handle), "hipEventDestroy");
        }
    }

    private ihipEvent_t handle() {
        if (closed) {
            throw new IllegalStateException("this HipEvent was closed");
        }
        return handle;
    }
}
