package org.rocshmem.api;

import static org.rocshmem.global.rocshmem.rocshmem_getmem;
import static org.rocshmem.global.rocshmem.rocshmem_getmem_nbi;
import static org.rocshmem.global.rocshmem.rocshmem_getmem_on_stream;
import static org.rocshmem.global.rocshmem.rocshmem_ptr;
import static org.rocshmem.global.rocshmem.rocshmem_putmem;
import static org.rocshmem.global.rocshmem.rocshmem_putmem_nbi;
import static org.rocshmem.global.rocshmem.rocshmem_putmem_on_stream;

import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.ShortPointer;

/**
 * A block of the symmetric heap: the same offsets exist on every PE, so {@code put(pe, ...)} writes into PE
 * {@code pe}'s copy of this block. Created by {@link Rocshmem#malloc}, {@link Rocshmem#calloc} or
 * {@link Rocshmem#align}; all three are collective, and so is {@link #close()} (rocshmem_free): every PE must
 * close its buffers in the same order. The garbage collector never frees a buffer; a forgotten one is reported
 * with its allocation site and freed at finalize.
 *
 * <p>Local memory for put/get (the "source" of a put, the "destination" of a get) is another SymmetricBuffer or
 * any JavaCPP {@link Pointer} that rocSHMEM may access (device memory, or host memory registered with
 * {@link Rocshmem#register}). All offsets and lengths are in bytes and are checked before any native call.
 *
 * <p>Host access: on the CPU emulator symmetric memory is host memory, so the {@code as*Pointer} views and
 * {@link #asByteBuffer()} can be read and written directly. On a GPU the heap is device memory: the views are
 * addresses for HIP kernels and rocSHMEM calls only, {@link #asByteBuffer()} throws, and the host moves data with
 * {@link #copyFromHost}/{@link #copyToHost} (hipMemcpy).
 */
public final class SymmetricBuffer implements AutoCloseable {
    private final Rocshmem session;
    /** Own allocation, or the allocation this is a peer view of (a view dies with it). */
    private final Allocation allocation;
    private final BytePointer base;
    private final long byteSize;
    /** -1 for the symmetric buffer itself, else the PE whose copy this view addresses. */
    private final int peerOf;
    private final Cleaner.Cleanable leakWatch;
    /** as*Pointer/asByteBuffer views of the block, shared with its peer views: they die with the block. */
    private final RawViews rawViews;
    private volatile boolean viewClosed;

    private SymmetricBuffer(Rocshmem session, Allocation allocation, Pointer address, int peerOf) {
        this.session = session;
        this.allocation = allocation;
        this.base = new BytePointer(address).capacity(allocation.byteSize);
        this.byteSize = allocation.byteSize;
        this.peerOf = peerOf;
        this.leakWatch = peerOf < 0 ? LeakReporter.watch(this, allocation) : null;
        this.rawViews = RawViews.of(allocation);
    }

    static SymmetricBuffer owning(Rocshmem session, Allocation allocation) {
        return new SymmetricBuffer(session, allocation, allocation.address, -1);
    }

    public long byteSize() {
        return byteSize;
    }

    /** The native address (of PE {@link #peerOf()}'s copy for a peer view). */
    public long address() {
        requireOpen();
        return base.address();
    }

    /** True for the buffer returned by malloc/calloc/align, false for a {@link #peer(int)} view. */
    public boolean isOwner() {
        return peerOf < 0;
    }

    /** The PE whose copy a peer view addresses; the calling PE for the buffer itself. */
    public int peerOf() {
        return peerOf < 0 ? session.myPe() : peerOf;
    }

    public boolean isClosed() {
        return allocation.isReleased() || viewClosed;
    }

    // ---- raw views (no copies; they die with the block: see RawViews) ----
    // On the emulator a view has an address of its own (a window onto the block that the emulator disables when the
    // block is freed), so it differs from address(); rocSHMEM calls accept it as a symmetric address. After close()
    // the returned objects are dead: pointers are null, ByteBuffers have limit 0.

    public BytePointer asBytePointer() {
        return rawViews.track(new BytePointer(pointer()).capacity(byteSize));
    }

    public ShortPointer asShortPointer() {
        return rawViews.track(new ShortPointer(pointer()).capacity(byteSize / Short.BYTES));
    }

    public IntPointer asIntPointer() {
        return rawViews.track(new IntPointer(pointer()).capacity(byteSize / Integer.BYTES));
    }

    public LongPointer asLongPointer() {
        return rawViews.track(new LongPointer(pointer()).capacity(byteSize / Long.BYTES));
    }

    public FloatPointer asFloatPointer() {
        return rawViews.track(new FloatPointer(pointer()).capacity(byteSize / Float.BYTES));
    }

    public DoublePointer asDoublePointer() {
        return rawViews.track(new DoublePointer(pointer()).capacity(byteSize / Double.BYTES));
    }

    /** The whole buffer as a direct, native-order ByteBuffer; only where the memory is host-accessible. */
    public ByteBuffer asByteBuffer() {
        return asByteBuffer(0, byteSize);
    }

    public ByteBuffer asByteBuffer(long offset, long length) {
        Checks.range("asByteBuffer", offset, length, byteSize);
        if (length > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a ByteBuffer holds at most 2^31-1 bytes, asked for " + length);
        }
        if (!session.backend().emulator()) {
            throw new UnsupportedOperationException("symmetric memory is GPU memory on " + session.backend()
                    + "; use copyToHost/copyFromHost instead of a ByteBuffer view");
        }
        BytePointer window = new BytePointer(pointer()).position(offset).limit(offset + length);
        return rawViews.track(window.asByteBuffer().order(ByteOrder.nativeOrder()));
    }

    // ---- one-sided transfers: this buffer on PE pe <-> local memory ----

    /** Blocking put of the whole {@code source} (same size as this buffer) into PE {@code pe}'s copy. */
    public void put(int pe, SymmetricBuffer source) {
        requireSameSize("put", source);
        put(pe, 0, source, 0, byteSize);
    }

    /** Blocking get of PE {@code pe}'s copy into the whole {@code destination} (same size as this buffer). */
    public void get(int pe, SymmetricBuffer destination) {
        requireSameSize("get", destination);
        get(pe, 0, destination, 0, byteSize);
    }

    /** rocshmem_putmem: copies {@code bytes} from local {@code source} to this buffer at {@code offset} on PE pe. */
    public void put(int pe, long offset, SymmetricBuffer source, long sourceOffset, long bytes) {
        put(pe, offset, source.localRange("put source", sourceOffset, bytes), bytes);
    }

    public void put(int pe, long offset, Pointer source, long bytes) {
        rocshmem_putmem(remote("put", pe, offset, bytes), local("put source", source, bytes), bytes, pe);
    }

    /** rocshmem_getmem: copies {@code bytes} of PE {@code pe}'s copy at {@code offset} to local {@code destination}. */
    public void get(int pe, long offset, SymmetricBuffer destination, long destinationOffset, long bytes) {
        get(pe, offset, destination.localRange("get destination", destinationOffset, bytes), bytes);
    }

    public void get(int pe, long offset, Pointer destination, long bytes) {
        rocshmem_getmem(local("get destination", destination, bytes), remote("get", pe, offset, bytes), bytes, pe);
    }

    /** Non-blocking put (rocshmem_putmem_nbi); complete it with {@link Rocshmem#quiet()}. */
    public void putNbi(int pe, long offset, SymmetricBuffer source, long sourceOffset, long bytes) {
        BytePointer from = source.localRange("putNbi source", sourceOffset, bytes);
        rocshmem_putmem_nbi(remote("putNbi", pe, offset, bytes), from, bytes, pe);
    }

    /** Non-blocking get (rocshmem_getmem_nbi); the data is there after {@link Rocshmem#quiet()}. */
    public void getNbi(int pe, long offset, SymmetricBuffer destination, long destinationOffset, long bytes) {
        BytePointer to = destination.localRange("getNbi destination", destinationOffset, bytes);
        rocshmem_getmem_nbi(to, remote("getNbi", pe, offset, bytes), bytes, pe);
    }

    /** Stream-ordered put (rocshmem_putmem_on_stream): runs when the stream reaches it. */
    public void putOnStream(HipStream stream, int pe, long offset, SymmetricBuffer source, long sourceOffset,
                            long bytes) {
        BytePointer from = source.localRange("putOnStream source", sourceOffset, bytes);
        rocshmem_putmem_on_stream(remote("putOnStream", pe, offset, bytes), from, bytes, pe, stream.handle());
    }

    /** Stream-ordered get (rocshmem_getmem_on_stream); synchronize the stream before reading the result. */
    public void getOnStream(HipStream stream, int pe, long offset, SymmetricBuffer destination,
                            long destinationOffset, long bytes) {
        BytePointer to = destination.localRange("getOnStream destination", destinationOffset, bytes);
        rocshmem_getmem_on_stream(to, remote("getOnStream", pe, offset, bytes), bytes, pe, stream.handle());
    }

    // ---- host <-> buffer (hipMemcpy; works on every backend) ----

    public void copyFromHost(long offset, byte[] source) {
        try (BytePointer staging = new BytePointer(source)) {
            HostCopy.toBuffer(localRange("copyFromHost", offset, source.length), staging, source.length);
        }
    }

    public void copyFromHost(long offset, int[] source) {
        long bytes = (long) source.length * Integer.BYTES;
        try (IntPointer staging = new IntPointer(source)) {
            HostCopy.toBuffer(localRange("copyFromHost", offset, bytes), staging, bytes);
        }
    }

    public void copyFromHost(long offset, long[] source) {
        long bytes = (long) source.length * Long.BYTES;
        try (LongPointer staging = new LongPointer(source)) {
            HostCopy.toBuffer(localRange("copyFromHost", offset, bytes), staging, bytes);
        }
    }

    public void copyFromHost(long offset, double[] source) {
        long bytes = (long) source.length * Double.BYTES;
        try (DoublePointer staging = new DoublePointer(source)) {
            HostCopy.toBuffer(localRange("copyFromHost", offset, bytes), staging, bytes);
        }
    }

    /** Copies {@code source}'s remaining bytes (position advances to its limit). */
    public void copyFromHost(long offset, ByteBuffer source) {
        byte[] bytes = new byte[source.remaining()];
        source.get(bytes);
        copyFromHost(offset, bytes);
    }

    public void copyToHost(long offset, byte[] destination) {
        try (BytePointer staging = new BytePointer(destination.length)) {
            HostCopy.toHost(staging, localRange("copyToHost", offset, destination.length), destination.length);
            staging.get(destination);
        }
    }

    public void copyToHost(long offset, int[] destination) {
        long bytes = (long) destination.length * Integer.BYTES;
        try (IntPointer staging = new IntPointer(destination.length)) {
            HostCopy.toHost(staging, localRange("copyToHost", offset, bytes), bytes);
            staging.get(destination);
        }
    }

    public void copyToHost(long offset, long[] destination) {
        long bytes = (long) destination.length * Long.BYTES;
        try (LongPointer staging = new LongPointer(destination.length)) {
            HostCopy.toHost(staging, localRange("copyToHost", offset, bytes), bytes);
            staging.get(destination);
        }
    }

    public void copyToHost(long offset, double[] destination) {
        long bytes = (long) destination.length * Double.BYTES;
        try (DoublePointer staging = new DoublePointer(destination.length)) {
            HostCopy.toHost(staging, localRange("copyToHost", offset, bytes), bytes);
            staging.get(destination);
        }
    }

    /** Fills {@code destination}'s remaining bytes (position advances to its limit). */
    public void copyToHost(long offset, ByteBuffer destination) {
        byte[] bytes = new byte[destination.remaining()];
        copyToHost(offset, bytes);
        destination.put(bytes);
    }

    // ---- peers ----

    /**
     * Direct load/store view of PE {@code pe}'s copy (rocshmem_ptr). Returns this buffer for the calling PE. The
     * view does not own memory: closing it only invalidates it, and it dies with this buffer.
     *
     * @throws RocshmemException if rocSHMEM offers no direct path to that PE (rocshmem_ptr returned null)
     */
    public SymmetricBuffer peer(int pe) {
        requireSymmetric("peer");
        Checks.pe(pe, session.nPes());
        if (pe == session.myPe()) {
            return this;
        }
        Pointer peerAddress = rocshmem_ptr(base, pe);
        if (peerAddress == null || peerAddress.isNull()) {
            throw new RocshmemException("rocshmem_ptr returned null for PE " + pe + ": no direct load/store path to"
                    + " that PE on " + session.backend() + "; use put/get instead");
        }
        return new SymmetricBuffer(session, allocation, peerAddress, pe);
    }

    /** rocshmem_ptr of this buffer for every PE (0 where there is no direct path; own entry = own address). */
    public long[] peerPointerTable() {
        requireSymmetric("peerPointerTable");
        long[] table = new long[session.nPes()];
        for (int pe = 0; pe < table.length; pe++) {
            Pointer p = rocshmem_ptr(base, pe);
            table[pe] = p == null ? 0 : p.address();
        }
        return table;
    }

    /**
     * Collective for the buffer itself: every PE must close its buffers in the same order (rocshmem_free
     * synchronizes all PEs). For a peer view it only invalidates the view. Idempotent.
     */
    @Override
    public void close() {
        if (!isOwner()) {
            viewClosed = true;
            return;
        }
        rawViews.die(); // before rocshmem_free returns the block to the heap
        if (session.free(allocation)) {
            leakWatch.clean();
        }
    }

    @Override
    public String toString() {
        return "SymmetricBuffer[" + byteSize + " bytes at 0x" + Long.toHexString(base.address())
                + (isOwner() ? "" : ", view of PE " + peerOf) + (isClosed() ? ", closed" : "") + "]";
    }

    // ---- internals ----

    /** Where raw views start: a window onto this mapping on the emulator, the mapping itself on a GPU. */
    private Pointer pointer() {
        requireOpen();
        return rawViews.window(session.backend(), base, byteSize);
    }

    private void requireOpen() {
        session.requireOpen();
        if (isClosed()) {
            throw new RocshmemStateException("this " + (isOwner() ? "SymmetricBuffer" : "peer view") + " of "
                    + byteSize + " bytes was closed");
        }
    }

    /** Remote-side operations need the symmetric address, never a peer's mapped address. */
    private void requireSymmetric(String op) {
        requireOpen();
        if (!isOwner()) {
            throw new UnsupportedOperationException(op + " needs the symmetric buffer, not a peer view of PE "
                    + peerOf);
        }
    }

    private BytePointer remote(String op, int pe, long offset, long bytes) {
        requireSymmetric(op);
        Checks.pe(pe, session.nPes());
        Checks.range(op + " on " + this, offset, bytes, byteSize);
        return new BytePointer(base).position(offset);
    }

    private BytePointer localRange(String what, long offset, long bytes) {
        requireOpen();
        Checks.range(what + " " + this, offset, bytes, byteSize);
        return new BytePointer(base).position(offset);
    }

    private void requireSameSize(String op, SymmetricBuffer other) {
        if (other.byteSize != byteSize) {
            throw new IllegalArgumentException(op + " of whole buffers needs equal sizes: " + byteSize + " != "
                    + other.byteSize + " bytes");
        }
    }

    /** Checks a raw local pointer against its known extent (JavaCPP limit/capacity), if it has one. */
    private static Pointer local(String what, Pointer p, long bytes) {
        if (p == null || p.isNull()) {
            throw new IllegalArgumentException(what + " is a null pointer");
        }
        long elements = p.limit() > 0 ? p.limit() : p.capacity();
        if (elements > 0) {
            Checks.range(what, 0, bytes, (elements - p.position()) * p.sizeof());
        }
        if (bytes < 0) {
            throw new IndexOutOfBoundsException(what + ": negative length " + bytes);
        }
        return p;
    }
}
