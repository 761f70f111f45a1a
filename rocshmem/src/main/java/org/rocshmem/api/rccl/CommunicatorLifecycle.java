package org.rocshmem.api.rccl;

import static org.rocshmem.global.rccl.*;

import org.rocshmem.rccl.ncclComm;

/**
 * What every {@link Communicator} is besides its collectives: the native handle, the queries on it and its
 * lifetime (finalize, abort, close). A communicator that failed or was closed refuses everything but close().
 */
abstract sealed class CommunicatorLifecycle implements AutoCloseable permits Communicator {
    final ncclComm handle;
    private int rank = -1;
    private int size = -1;
    private int device = -1;
    private volatile boolean finalized;
    private volatile boolean closed;

    CommunicatorLifecycle(ncclComm handle) {
        this.handle = handle;
    }

    // ------------------------------------------------------------------ queries

    /** This rank in the communicator (ncclCommUserRank). */
    public int rank() {
        requireNotClosed(); // also once the value is cached: a closed communicator answers nothing
        if (rank < 0) {
            rank = query((c, out) -> ncclCommUserRank(c, out), "ncclCommUserRank");
        }
        return rank;
    }

    /** Number of ranks (ncclCommCount). */
    public int size() {
        requireNotClosed(); // also once the value is cached: a closed communicator answers nothing
        if (size < 0) {
            size = query((c, out) -> ncclCommCount(c, out), "ncclCommCount");
        }
        return size;
    }

    /** The HIP device of this rank (ncclCommCuDevice). */
    public int device() {
        requireNotClosed(); // also once the value is cached: a closed communicator answers nothing
        if (device < 0) {
            device = query((c, out) -> ncclCommCuDevice(c, out), "ncclCommCuDevice");
        }
        return device;
    }

    /** ncclCommGetAsyncError: SUCCESS, IN_PROGRESS (still being created), or why the communicator failed. */
    public RcclResult asyncError() {
        requireNotClosed();
        int[] error = {0};
        Rccl.check(ncclCommGetAsyncError(handle, error), "ncclCommGetAsyncError", handle);
        RcclResult result = RcclResult.ofCode(error[0]);
        return result == null ? RcclResult.INTERNAL_ERROR : result;
    }

    /** Throws the communicator's asynchronous error, if it has one. */
    public void checkAsyncError() {
        RcclResult error = asyncError();
        if (error != RcclResult.SUCCESS && error != RcclResult.IN_PROGRESS) {
            Rccl.check(error.code(), "communicator (asynchronous error)", handle);
        }
    }

    public boolean isClosed() {
        return closed;
    }

    /** The native handle, for the raw bindings. */
    public ncclComm handle() {
        requireNotClosed();
        return handle;
    }

    /** ncclCommFinalize: flushes this rank's queued operations and waits until every rank did. Collective. */
    public void finalizeCommunicator() {
        requireOpen();
        Rccl.check(ncclCommFinalize(handle), "ncclCommFinalize", handle);
        finalized = true;
    }

    /**
     * ncclCommAbort: cancels what is queued or running and releases the communicator at once, without waiting
     * for peers (they see this rank leave and fail with REMOTE_ERROR instead of hanging). Idempotent.
     */
    public synchronized void abort() {
        if (closed) {
            return;
        }
        closed = true;
        Rccl.check(ncclCommAbort(handle), "ncclCommAbort", null);
    }

    /**
     * Finalize (unless done) and destroy: collective, every rank closes in the same order. A communicator with an
     * asynchronous error is aborted instead. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        RcclResult error = asyncError();
        if (error != RcclResult.SUCCESS) {
            abort();
            return;
        }
        try {
            if (!finalized) {
                finalizeCommunicator();
            }
        } catch (RcclException e) {
            abort();
            throw e;
        }
        closed = true;
        Rccl.check(ncclCommDestroy(handle), "ncclCommDestroy", null);
    }

    public boolean isFinalized() {
        return finalized;
    }

    @Override
    public String toString() {
        return closed ? "Communicator[closed]" : "Communicator[rank " + rank + " of " + size + "]";
    }

    // ------------------------------------------------------------------ checks

    private interface IntQuery {
        int call(ncclComm comm, int[] out);
    }

    private int query(IntQuery query, String call) {
        requireNotClosed();
        int[] out = {-1};
        Rccl.check(query.call(handle, out), call, handle);
        return out[0];
    }

    final void requireNotClosed() {
        if (closed) {
            throw new IllegalStateException("this RCCL communicator was closed");
        }
    }

    final void requireOpen() {
        requireNotClosed();
        if (finalized) {
            throw new IllegalStateException("this RCCL communicator was finalized: only close() remains");
        }
    }
}
