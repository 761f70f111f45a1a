package org.rocshmem.api;

import static org.rocshmem.global.hip.hipErrorNotReady;
import static org.rocshmem.global.hip.hipMemcpyAsync;
import static org.rocshmem.global.hip.hipMemcpyDefault;
import static org.rocshmem.global.hip.hipStreamCreate;
import static org.rocshmem.global.hip.hipStreamCreateWithFlags;
import static org.rocshmem.global.hip.hipStreamDestroy;
import static org.rocshmem.global.hip.hipStreamQuery;
import static org.rocshmem.global.hip.hipStreamSynchronize;
import static org.rocshmem.global.hip.hipStreamNonBlocking;
import static org.rocshmem.global.hip.hipSuccess;

import java.util.concurrent.atomic.AtomicInteger;
import org.rocshmem.hip.ihipStream_t;

/**
 * A HIP stream ({@code hipStream_t}): work enqueued on it runs in order, asynchronously to the host. The
 * stream-ordered rocSHMEM calls ({@code *_on_stream}) take one, and this class strings them together:
 *
 * <pre>{@code
 * try (Rocshmem shmem = Rocshmem.init();
 *      SymmetricBuffer buffer = shmem.calloc(9, Long.BYTES);
 *      HipStream stream = HipStream.create()) {
 *     SymmetricLongs inbox = buffer.asLongs().slice(0, 4), outbox = buffer.asLongs().slice(4, 4);
 *     SymmetricLongs flags = buffer.asLongs(CType.UINT64).slice(8, 1);
 *     outbox.copyFrom(new long[] {1, 2, 3, shmem.myPe()});
 *     shmem.barrierAll();
 *     int peer = (shmem.myPe() + 1) % shmem.nPes();
 *     HipEvent start = stream.record();
 *     stream.put(inbox, peer, outbox)                        // rocshmem_putmem_on_stream
 *           .putSignal(inbox, peer, outbox, flags, 0, 1, SignalOp.ADD)
 *           .waitSignal(flags, 0, Compare.GE, 1)             // rocshmem_signal_wait_until_on_stream
 *           .then(shmem::quiet)                              // any other stream-ordered call
 *           .barrierAll(shmem);
 *     HipEvent end = stream.record();
 *     stream.completion().thenRun(() -> System.out.println("done")); // without blocking a thread
 *     stream.synchronize();
 *     System.out.println(java.util.Arrays.toString(inbox.toArray()) + " in " + end.millisSince(start) + " ms");
 *     start.close();
 *     end.close();
 * }
 * }</pre>
 *
 * Each fluent step delegates to the call's one home (the view, the team or the session, which the step names: no
 * hidden global session) and returns this stream.
 * {@link #NULL} is the device's default (null) stream, which needs no creation and is never destroyed. Messages
 * name a stream in words: "stream #2 (non-blocking)", numbered in the order this process made or wrapped them.
 */
public final class HipStream implements AutoCloseable {
    /** The null stream: synchronizes with all other blocking streams of the device. */
    public static final HipStream NULL = new HipStream(null, false, false);
    private static final AtomicInteger NUMBERS = new AtomicInteger();

    private final ihipStream_t handle;
    private final boolean owned;
    private final boolean nonBlocking;
    /** 1, 2, ... in creation order; 0 for NULL. */
    private final int number;
    private final StreamCompletions completions = new StreamCompletions();
    private volatile boolean closed;

    private HipStream(ihipStream_t handle, boolean owned, boolean nonBlocking) {
        this.handle = handle;
        this.owned = owned;
        this.nonBlocking = nonBlocking;
        this.number = handle == null ? 0 : NUMBERS.incrementAndGet();
    }

    /** Creates a stream on the current HIP device ({@code hipStreamCreate}). */
    public static HipStream create() {
        ihipStream_t handle = new ihipStream_t();
        HipException.check(hipStreamCreate(handle), "hipStreamCreate");
        return new HipStream(handle, true, false);
    }

    /**
     * Creates a stream that does not synchronize with the null stream ({@code hipStreamCreateWithFlags(...,
     * hipStreamNonBlocking)}).
     */
    public static HipStream createNonBlocking() {
        ihipStream_t handle = new ihipStream_t();
        HipException.check(hipStreamCreateWithFlags(handle, hipStreamNonBlocking),
                "hipStreamCreateWithFlags(hipStreamNonBlocking)");
        return new HipStream(handle, true, true);
    }

    /** Wraps a stream created elsewhere (e.g. by another library); {@link #close()} will not destroy it. */
    public static HipStream wrap(ihipStream_t handle) {
        return handle == null || handle.isNull() ? NULL : new HipStream(handle, false, false);
    }

    /** True for a stream made by {@link #createNonBlocking()}. */
    public boolean isNonBlocking() {
        return nonBlocking;
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

    // ---------------------------------------------------------------- ordered sequence
    // RMA argument order, as on the views (SymmetricArray): the remote side, the PE, then the local side.

    /**
     * Enqueues the copy of {@code source} into PE {@code pe}'s {@code destination} (rocshmem_putmem_on_stream): the
     * same order as {@code destination.put(pe, source)} on a view, remote side first.
     */
    public HipStream put(SymmetricArray destination, int pe, SymmetricArray source) {
        destination.putmemOnStream(this, pe, source);
        return this;
    }

    /**
     * Enqueues the copy of PE {@code pe}'s {@code source} into local {@code destination}: the same order as
     * {@code source.get(pe, destination)} on a view, remote side first.
     */
    public HipStream get(SymmetricArray source, int pe, SymmetricArray destination) {
        source.getmemOnStream(this, pe, destination);
        return this;
    }

    /** Enqueues a put followed by a signal update (rocshmem_putmem_signal_on_stream). */
    public HipStream putSignal(SymmetricArray destination, int pe, SymmetricArray source, SymmetricLongs signals,
                               long signalIndex, long signal, SignalOp op) {
        destination.putmemSignalOnStream(this, pe, source, signals, signalIndex, signal, op);
        return this;
    }

    /** Enqueues a barrier over all PEs of {@code session} (rocshmem_barrier_all_on_stream). */
    public HipStream barrierAll(Rocshmem session) {
        session.barrierAll(this);
        return this;
    }

    /** Enqueues a barrier over {@code team} (rocshmem_barrier_on_stream; a no-op for Team.INVALID). */
    public HipStream barrier(Team team) {
        team.barrier(this);
        return this;
    }

    /** Enqueues a sync over all PEs of {@code session} (rocshmem_sync_all_on_stream). */
    public HipStream syncAll(Rocshmem session) {
        session.syncAll(this);
        return this;
    }

    /** Enqueues a sync over {@code team} (rocshmem_team_sync_on_stream). */
    public HipStream sync(Team team) {
        team.sync(this);
        return this;
    }

    /** Enqueues completion of this PE's stream-ordered puts of {@code session} (rocshmem_quiet_on_stream). */
    public HipStream quiet(Rocshmem session) {
        session.quiet(this);
        return this;
    }

    /** Enqueues {@link Team#alltoallmem}. */
    public HipStream alltoall(Team team, SymmetricArray destination, SymmetricArray source) {
        team.alltoallmem(this, destination, source);
        return this;
    }

    /** Enqueues {@link Team#broadcastmem}. */
    public HipStream broadcast(Team team, SymmetricArray destination, SymmetricArray source, int root) {
        team.broadcastmem(this, destination, source, root);
        return this;
    }

    /**
     * Enqueues a copy between host and device memory (hipMemcpyAsync, direction inferred). Host memory must stay
     * valid until the stream reaches the copy; pinned host memory (hipHostMalloc) makes it truly asynchronous.
     */
    public HipStream copy(org.bytedeco.javacpp.Pointer destination, org.bytedeco.javacpp.Pointer source, long bytes) {
        Checks.positive("copy length", bytes);
        // like putmem: a pointer that knows its extent must hold the bytes (memcpy would run past it)
        Checks.localPointer("copy destination", destination, bytes);
        Checks.localPointer("copy source", source, bytes);
        HipException.check(hipMemcpyAsync(destination, source, bytes, hipMemcpyDefault, handle()),
                "hipMemcpyAsync(" + bytes + " bytes on " + this + ")");
        return this;
    }

    /** Any other stream-ordered call, e.g. {@code stream.then(s -> team.sumReduce(s, sums, values))}. */
    public HipStream then(java.util.function.Consumer<HipStream> step) {
        step.accept(this);
        return this;
    }

    /** Records an event at this point of the stream, for timing or waiting (hipEventCreate + hipEventRecord). */
    public HipEvent record() {
        return HipEvent.recordOn(this);
    }

    /**
     * A future that completes once everything enqueued so far has run (a host function enqueued with
     * hipLaunchHostFunc). It completes on a pool thread, never on the stream's own thread, so dependent stages may
     * call HIP and rocSHMEM.
     */
    public java.util.concurrent.CompletableFuture<Void> completion() {
        return completions.enqueue(this);
    }

    /** Blocks until all work enqueued so far has completed ({@code hipStreamSynchronize}). */
    public void synchronize() {
        int status = hipStreamSynchronize(handle());
        if (status != hipSuccess) {
            HipException.check(status, "hipStreamSynchronize(" + this + ")");
        }
    }

    /** True if all enqueued work has completed, false if some is still pending ({@code hipStreamQuery}). */
    public boolean isIdle() {
        int status = hipStreamQuery(handle());
        if (status == hipErrorNotReady) {
            return false;
        }
        HipException.check(status, "hipStreamQuery(" + this + ")");
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
        if (completions.pending()) {
            synchronize(); // the completion callbacks belong to this object: let them run before it goes
        }
        closed = true;
        if (owned) {
            HipException.check(hipStreamDestroy(handle), "hipStreamDestroy(" + this + ")");
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new RocshmemStateException("this HipStream (stream #" + number + ") was closed");
        }
    }

    /** In words, for messages: "the null stream", "stream #2", "stream #3 (non-blocking)", "stream #4 (wrapped)". */
    @Override
    public String toString() {
        if (handle == null) {
            return "the null stream";
        }
        String flags = (nonBlocking ? "non-blocking" : "") + (owned ? "" : "wrapped") + (closed ? (nonBlocking || !owned
                ? ", " : "") + "closed" : "");
        return "stream #" + number + (flags.isEmpty() ? "" : " (" + flags + ")");
    }
}
