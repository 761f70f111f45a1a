package org.rocshmem.api.rccl;

import static org.rocshmem.global.rccl.ncclGroupEnd;
import static org.rocshmem.global.rccl.ncclGroupStart;

/**
 * An RCCL group ({@code ncclGroupStart} ... {@code ncclGroupEnd}) as a try-with-resources block. Inside it,
 * collectives and send/recv are only recorded; {@link #close()} enqueues them as one fused operation per
 * communicator, so sends and receives between ranks progress together and cannot deadlock. Communicators
 * created or split inside a group become usable when it closes. Groups nest and belong to the thread that
 * opened them.
 */
public final class Group implements AutoCloseable {
    private final Thread owner = Thread.currentThread();
    private boolean closed;

    Group() {
        Rccl.check(ncclGroupStart(), "ncclGroupStart", null);
    }

    /** ncclGroupEnd. Throws if any call of the group could not be enqueued. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("an RCCL group must be closed by the thread that opened it ("
                    + owner.getName() + "), not " + Thread.currentThread().getName());
        }
        closed = true;
        Rccl.check(ncclGroupEnd(), "ncclGroupEnd", null);
    }
}
