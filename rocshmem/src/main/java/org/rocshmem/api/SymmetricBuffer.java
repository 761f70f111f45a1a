package org.rocshmem.api;

import static org.rocshmem.global.rocshmem.rocshmem_ptr;

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
import org.rocshmem.api.hip.CallsNative;
import org.rocshmem.api.hip.DeviceRegion;

/**
 * A block of the symmetric heap: the same offsets exist on every PE, so an operation on PE {@code pe} reaches PE
 * {@code pe}'s copy of this block. Created by {@link Rocshmem#malloc}, {@link Rocshmem#calloc} or
 * {@link Rocshmem#align}; all three are collective, and so is {@link #close()} (rocshmem_free): every PE must
 * close its buffers in the same order. The garbage collector never frees a buffer; a forgotten one is reported
 * with its allocation site and freed at finalize.
 *
 * <p>Data moves through element-typed views of the block: {@link #asLongs()}, {@link #asInts(CType)} and so on
 * give a {@link SymmetricArray} with put/get/p/g, atomics, waits, host copies and slices, every index and count
 * checked in elements. The views die with the buffer: once it is closed they refuse every call.
 *
 * <p>Raw access: on a GPU the heap is device memory: the {@code as*Pointer} views are addresses for HIP kernels and
 * rocSHMEM calls only, {@link #asByteBuffer()} throws, and the host moves data with the views' {@code
 * copyFrom}/{@code copyTo} (hipMemcpy). The emulator's heap is host memory, but {@link #asByteBuffer()} throws there
 * too, as it would on a GPU, unless {@code ROCSHMEM_EMU_HOST_ACCESS=1} (for programs meant only for the emulator).
 */
public final class SymmetricBuffer implements DeviceRegion, AutoCloseable {
    private final Rocshmem session;
    /** Own allocation, or the allocation this is a peer view of (a view dies with it). */
    private final Allocation allocation;
    private final BytePointer base;
    private final long byteSize;
    /** -1 for the symmetric buffer itself, else the PE whose copy this view addresses. */
    private final int viewedPe;
    private final Cleaner.Cleanable leakWatch;
    /** as*Pointer/asByteBuffer views of the block, shared with its peer views: they die with the block. */
    private final RawViews rawViews;
    private volatile boolean viewClosed;

    private SymmetricBuffer(Rocshmem session, Allocation allocation, Pointer address, int viewedPe) {
        this.session = session;
        this.allocation = allocation;
        this.base = new BytePointer(address).capacity(allocation.byteSize);
        this.byteSize = allocation.byteSize;
        this.viewedPe = viewedPe;
        this.leakWatch = viewedPe < 0 ? LeakReporter.watch(this, allocation) : null;
        this.rawViews = RawViews.of(allocation);
    }

    static SymmetricBuffer owning(Rocshmem session, Allocation allocation) {
        return new SymmetricBuffer(session, allocation, allocation.address, -1);
    }

    @Override
    public long byteSize() {
        return byteSize;
    }

    /** The native address (of PE {@link #addressedPe()}'s copy for a peer view). */
    @Override
    public long address() {
        requireOpen();
        return base.address();
    }

    /** True for a {@link #peer(int)} view, false for the buffer returned by malloc/calloc/align. */
    public boolean isPeerView() {
        return viewedPe >= 0;
    }

    /** The PE whose copy of the block this object addresses: the viewed PE of a peer view, else the calling PE. */
    public int addressedPe() {
        return isPeerView() ? viewedPe : session.myPe();
    }

    public boolean isClosed() {
        return allocation.isReleased() || viewClosed;
    }

    // ---- element-typed views of the symmetric block (checked on every call; they die with the buffer) ----

    /** The buffer as {@code byte} elements of C type {@code char}. */
    public SymmetricBytes asBytes() {
        return asBytes(CType.CHAR);
    }

    /** The buffer as {@code byte} elements of the given C type (char, schar, uchar, int8, uint8). */
    public SymmetricBytes asBytes(CType type) {
        return new SymmetricBytes(session, allocation, typedBase(type, byte.class), elements(type), type, null);
    }

    /** The buffer as {@code short} elements of C type {@code short} (whole elements only; a tail is left out). */
    public SymmetricShorts asShorts() {
        return asShorts(CType.SHORT);
    }

    public SymmetricShorts asShorts(CType type) {
        return new SymmetricShorts(session, allocation, typedBase(type, short.class), elements(type), type, null);
    }

    /** The buffer as {@code int} elements of C type {@code int}. */
    public SymmetricInts asInts() {
        return asInts(CType.INT);
    }

    public SymmetricInts asInts(CType type) {
        return new SymmetricInts(session, allocation, typedBase(type, int.class), elements(type), type, null);
    }

    /** The buffer as {@code long} elements of C type {@code long} (64-bit on LP64). */
    public SymmetricLongs asLongs() {
        return asLongs(CType.LONG);
    }

    public SymmetricLongs asLongs(CType type) {
        return new SymmetricLongs(session, allocation, typedBase(type, long.class), elements(type), type, null);
    }

    public SymmetricFloats asFloats() {
        return new SymmetricFloats(session, allocation, typedBase(CType.FLOAT, float.class),
                elements(CType.FLOAT), CType.FLOAT, null);
    }

    public SymmetricDoubles asDoubles() {
        return new SymmetricDoubles(session, allocation, typedBase(CType.DOUBLE, double.class),
                elements(CType.DOUBLE), CType.DOUBLE, null);
    }

    private long typedBase(CType type, Class<?> elementType) {
        requireSymmetric("a typed view");
        if (type.elementType() != elementType) {
            throw new IllegalArgumentException(type + " (" + type.cName() + ") is not held in a Java " + elementType
                    + "; the C types for it are " + CType.forElement(elementType));
        }
        return base.address();
    }

    private long elements(CType type) {
        return byteSize / type.bytes();
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

    /**
     * The whole buffer as a direct, native-order ByteBuffer: only on the emulator with {@code
     * ROCSHMEM_EMU_HOST_ACCESS=1}, since symmetric memory is device memory on a GPU.
     *
     * @throws UnsupportedOperationException elsewhere, naming what to use instead
     */
    public ByteBuffer asByteBuffer() {
        return asByteBuffer(0, byteSize);
    }

    public ByteBuffer asByteBuffer(long offset, long length) {
        Checks.range("asByteBuffer", offset, length, byteSize);
        if (length > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("a ByteBuffer holds at most 2^31-1 bytes, asked for " + length);
        }
        HostAccess.check(session.backend());
        BytePointer window = new BytePointer(pointer()).position(offset).limit(offset + length);
        return rawViews.track(window.asByteBuffer().order(ByteOrder.nativeOrder()));
    }

    // ---- peers ----

    /**
     * Direct load/store view of PE {@code pe}'s copy (rocshmem_ptr). Returns this buffer for the calling PE. The
     * view does not own memory: closing it only invalidates it, and it dies with this buffer.
     *
     * @throws RocshmemException if rocSHMEM offers no direct path to that PE (rocshmem_ptr returned null)
     */
    @CallsNative("rocshmem_ptr")
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
    @CallsNative("rocshmem_ptr")
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
    @CallsNative({"rocshmem_free", "rocshmem_buffer_unregister_symmetric"})
    @Override
    public void close() {
        if (isPeerView()) {
            viewClosed = true;
            return;
        }
        rawViews.die(); // before rocshmem_free returns the block to the heap
        if (session.closingOnException()) {
            if (allocation.release()) {
                leakWatch.clean(); // not leaked: the job is over for this PE, rocshmem_free is collective
            }
            return;
        }
        if (session.heap().free(allocation)) {
            leakWatch.clean();
        }
    }

    @Override
    public String toString() {
        return "SymmetricBuffer[" + byteSize + " bytes at 0x" + Long.toHexString(base.address())
                + (isPeerView() ? ", view of PE " + viewedPe : "") + (isClosed() ? ", closed" : "") + "]";
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
            throw new RocshmemStateException("this " + (isPeerView() ? "peer view" : "SymmetricBuffer") + " of "
                    + byteSize + " bytes was closed");
        }
    }

    /** Remote-side operations need the symmetric address, never a peer's mapped address. */
    private void requireSymmetric(String op) {
        requireOpen();
        if (isPeerView()) {
            throw new UnsupportedOperationException(op + " needs the symmetric buffer, not a peer view of PE "
                    + viewedPe);
        }
    }

}
