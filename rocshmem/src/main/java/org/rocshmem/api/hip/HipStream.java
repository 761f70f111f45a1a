package org.rocshmem.api.hip;

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
import org.bytedeco.javacpp.Pointer;
import org.rocshmem.hip.ihipStream_t;

/**
 * A HIP stream ({@code hipStream_t}): work enqueued on it runs in order, asynchronously to the host.
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
 *     inbox.putmemSignalOnStream(stream, peer, outbox, flags, 0, 1, SignalOp.ADD); // rocSHMEM's stream calls live on
 *     flags.signalWaitUntilOnStream(stream, 0, Compare.GE, 1);                     // the view, the session and the
 *     shmem.barrierAll(stream);                                                    // team, and take the stream
 *     HipEvent end = stream.record();
 *     stream.completion().thenRun(() -> System.out.println("done")); // without blocking a thread
 *     stream.synchronize();
 *     System.out.println(java.util.Arrays.toString(inbox.toArray()) + " in " + end.millisSince(start) + " ms");
 *     start.close();
 *     end.close();
 * }
 * }</pre>
 *
 * A stream knows no library above HIP: the libraries' stream-ordered calls take it as an argument.
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
     * Enqueues a copy between host and device memory (hipMemcpyAsync, direction inferred). Host memory must stay
     * valid until the stream reaches the copy; pinned host memory (hipHostMalloc) makes it truly asynchronous.
     */
    public HipStream copy(Pointer destination, Pointer source, long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("copy length must be > 0, got " + bytes);
        }
        // like putmem: a pointer that knows its extent must hold the bytes (memcpy would run past it)
        requireExtent("copy destination", destination, bytes);
        requireExtent("copy source", source, bytes);
        HipException.check(hipMemcpyAsync(destination, source, bytes, hipMemcpyDefault, handle()),
                "hipMemcpyAsync(" + bytes + " bytes on " + this + ")");
        return this;
    }

    /**
     * Enqueues the copy of {@code source} into {@code destination}, device memory of any kind (a view, a buffer, an
     * allocation; hipMemcpyAsync): both must have the same known size.
     */
    public HipStream copy(DeviceRegion destination, DeviceRegion source) {
        java.util.Objects.requireNonNull(destination, "destination");
        java.util.Objects.requireNonNull(source, "source");
        long bytes = destination.byteSize();
        if (bytes < 0 || source.byteSize() != bytes) {
            throw new IllegalArgumentException("copy: the regions differ in size or have none: " + destination + " ("
                    + bytes + " bytes) and " + source + " (" + source.byteSize() + " bytes)");
        }
        HipException.check(hipMemcpyAsync(new RegionPointer(destination.address()), new RegionPointer(
                source.address()), bytes, hipMemcpyDefault, handle()), "hipMemcpyAsync");
        return this;
    }

    private static void requireExtent(String what, Pointer p, long bytes) {
        if (p == null || p.isNull()) {
            throw new IllegalArgumentException(what + " is a null pointer");
        }
        long elements = p.limit() > 0 ? p.limit() : p.capacity();
        if (elements > 0 && bytes > (elements - p.position()) * p.sizeof()) {
            throw new IndexOutOfBoundsException(what + ": range [0, 0 + " + bytes + ") is outside [0, "
                    + (elements - p.position()) * p.sizeof() + ")");
        }
    }

    /** A pointer at a region's address (JavaCPP sets addresses only from inside Pointer subclasses). */
    private static final class RegionPointer extends Pointer {
        RegionPointer(long address) {
            this.address = address;
        }
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
            throw new IllegalStateException("this HipStream (stream #" + number + ") was closed");
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
