package org.rocshmem.api;

import static org.rocshmem.global.rocshmem.rocshmem_ptr;

import org.bytedeco.javacpp.Pointer;
import org.rocshmem.api.hip.CallsNative;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceBuffer;
import org.rocshmem.api.hip.DeviceRegion;
import org.rocshmem.api.hip.HipStream;

/**
 * A window of a {@link SymmetricBuffer} seen as elements of one C type: the common part of the typed views
 * ({@link SymmetricBytes}, {@link SymmetricShorts}, {@link SymmetricInts}, {@link SymmetricLongs},
 * {@link SymmetricFloats}, {@link SymmetricDoubles}).
 *
 * <p>A view's size carries the element count, so a transfer between two views needs no lengths:
 * {@code inbox.put(pe, outbox)} moves {@code outbox.length()} elements into PE {@code pe}'s copy of {@code inbox}.
 * Ranges are views too: {@code inbox.slice(from, count)}. One argument order for every RMA call, on views and on
 * streams: the remote side, then the PE, then the local side ({@code remote.put(pe, local)},
 * {@code remote.get(pe, local)}, {@code remote.putmemOnStream(stream, pe, local)}).
 * Offsets and counts are in elements and are checked before
 * any native call; a view of a closed buffer, or of a finalized session, refuses every operation.
 *
 * <p>Every operation goes through the view's {@linkplain #context() context}: the library's default context, or
 * the one given to {@code withContext(ctx)}. Views are immutable; derive new ones once, outside hot loops (a
 * transfer allocates nothing, deriving a view allocates the view).
 *
 * <p>This class holds what does not depend on the element type: identity and checks. The untyped
 * {@code putmem}/{@code getmem} family (byte copies of the whole view) is generated into its superclass
 * {@code ByteTransfers}, the typed operations into the subclasses, both from the manifest.
 */
public abstract sealed class SymmetricArray extends ByteTransfers implements DeviceRegion
        permits SymmetricBytes, SymmetricShorts, SymmetricInts, SymmetricLongs, SymmetricFloats, SymmetricDoubles {
    final Rocshmem session;
    final Allocation allocation;
    /** Symmetric address of element 0 (the same offset into the heap on every PE). */
    final long address;
    final long length;
    final CType type;
    /** null: the library's default context. */
    final Context context;
    /** This PE, for the typed {@code get(index)}/{@code set(index, value)} on its own copy. */
    final int myPe;
    private final int nPes;
    private final int shift;

    SymmetricArray(Rocshmem session, Allocation allocation, long address, long length, CType type, Context context) {
        this.session = session;
        this.allocation = allocation;
        this.address = address;
        this.length = length;
        this.type = type;
        this.context = context;
        this.myPe = session.myPe();
        this.nPes = session.nPesUnchecked();
        this.shift = Long.numberOfTrailingZeros(type.bytes());
    }

    /** Number of elements. */
    public final long length() {
        return length;
    }

    /** The C element type the library calls are made for (it selects e.g. rocshmem_uint64_* over rocshmem_long_*). */
    public final CType type() {
        return type;
    }

    @Override
    public final long byteSize() {
        return length << shift;
    }

    /** The context operations go through; {@code null} for the library's default context. */
    public final Context context() {
        return context;
    }

    /** True once the buffer was closed or the session finalized: every operation then throws. */
    public final boolean isClosed() {
        return allocation.isReleased() || !session.isOpen();
    }

    /** The symmetric address of element 0 on this PE (for HIP kernels and raw bindings). */
    @Override
    public final long address() {
        requireLive();
        return address;
    }

    /**
     * rocshmem_ptr of element 0 for every PE: the address at which this PE can load and store PE {@code pe}'s copy
     * directly (a kernel's plain pointer), 0 where there is no direct path (use put/get there); the own entry is the
     * own address. The counterpart of rocshmem4py's peer-pointer table.
     */
    @CallsNative("rocshmem_ptr")
    public final long[] peerAddresses() {
        requireLive();
        return PeerAddressTable.peerAddresses(address, nPes);
    }

    /** {@link #peerAddresses()} as a device array a kernel can index by PE (a kernel argument); close it when done. */
    @CallsNative({"rocshmem_ptr", "hipMalloc", "hipMemcpy"})
    public final PeerAddressTable peerAddressTable() {
        return PeerAddressTable.upload(peerAddresses());
    }

    /**
     * Where this PE can load and store element 0 of PE {@code pe}'s copy, for the typed {@code peer(pe)}: null when
     * rocSHMEM has no direct path (rocshmem_ptr returned null). On the emulator a window onto the peer's block that
     * turns inert when the block is freed, spanning this view; on a GPU the device address itself (not for host
     * loads: the peer views go through p/g there).
     */
    @CallsNative("rocshmem_ptr")
    final Pointer peerWindow(int pe) {
        requireLive();
        if (pe < 0 || pe >= nPes) {
            throw Checks.peOutOfRange(pe, nPes);
        }
        Pointer block = rocshmem_ptr(allocation.address, pe);
        if (block == null || block.isNull()) {
            return null;
        }
        Pointer window = RawViews.of(allocation).window(session.backend(), block, allocation.byteSize);
        long offset = address - allocation.address.address();
        return new LocalMemory.AddressPointer(window.address() + offset, byteSize());
    }

    /** True where symmetric memory is host memory (the emulator), so peer views may load and store it directly. */
    final boolean hostLoadsAndStores() {
        return session.backend().emulator();
    }

    /** The elements {@code [from, from + count)} as a view of the same type and context. */
    public abstract SymmetricArray slice(long from, long count);

    // The untyped byte transfers (the putmem/getmem family, blocking, nbi and on streams) are generated into the
    // superclass ByteTransfers.

    /**
     * This view as typed device memory for a device collective (RCCL's): its length is the element count and its C
     * type gives the element type. There is no 16-bit integer element type, so short views are refused.
     */
    public final DeviceBuffer asDeviceBuffer() {
        return DeviceBuffer.of(address(), length, dataTypeOf(type));
    }

    /** The device element type of a rocSHMEM C element type (same width and signedness, LP64). */
    public static DataType dataTypeOf(CType type) {
        return switch (type) {
            case CHAR, SCHAR, INT8 -> DataType.INT8;
            case UCHAR, UINT8 -> DataType.UINT8;
            case INT, INT32 -> DataType.INT32;
            case UINT, UINT32 -> DataType.UINT32;
            case LONG, LONGLONG, INT64, PTRDIFF -> DataType.INT64;
            case ULONG, ULONGLONG, UINT64, SIZE -> DataType.UINT64;
            case FLOAT -> DataType.FLOAT32;
            case DOUBLE -> DataType.FLOAT64;
            case SHORT, USHORT, INT16, UINT16 -> throw new IllegalArgumentException("RCCL has no 16-bit integer type"
                    + " for a view of C type " + type.cName() + "; view the memory as another type");
        };
    }

    // ---------------------------------------------------------------- checks for the generated operations
    // None of these allocates or builds a string unless it throws.

    /** Address of element {@code index} of PE {@code pe}'s copy (a symmetric address: the library translates it). */
    final long remote(int pe, long index) {
        requireLive();
        if (pe < 0 || pe >= nPes) {
            throw Checks.peOutOfRange(pe, nPes);
        }
        if (index < 0 || index >= length) {
            throw Checks.indexOutOfRange(index, length, this);
        }
        return address + (index << shift);
    }

    /** Address of element 0 of PE {@code pe}'s copy, for whole-view transfers. */
    final long remoteBase(int pe) {
        requireLive();
        if (pe < 0 || pe >= nPes) {
            throw Checks.peOutOfRange(pe, nPes);
        }
        return address;
    }

    /** Address of this PE's element {@code index}. */
    final long local(long index) {
        requireLive();
        if (index < 0 || index >= length) {
            throw Checks.indexOutOfRange(index, length, this);
        }
        return address + (index << shift);
    }

    /** Address of this PE's element 0. */
    final long localBase() {
        requireLive();
        return address;
    }

    final void requireLive() {
        session.requireOpen();
        if (allocation.isReleased()) {
            throw closedError();
        }
    }

    /** {@code name}: the user's parameter, for the null refusal (a constant: nothing is built unless it throws). */
    final void requireSameLength(SymmetricArray other, String name) {
        if (other == null) {
            throw new NullPointerException(name + " is null");
        }
        if (other.length != length) {
            throw new IllegalArgumentException("the views differ in length: " + this + " and " + other
                    + " (slice one of them)");
        }
    }

    final long requireSameBytes(SymmetricArray other, String name) {
        if (other == null) {
            throw new NullPointerException(name + " is null");
        }
        long bytes = byteSize();
        if (other.byteSize() != bytes) {
            throw new IllegalArgumentException("the views differ in size: " + this + " and " + other
                    + " (slice one of them)");
        }
        return bytes;
    }

    /** A Java array holds the {@code length} elements the operation moves, from {@code offset} on. */
    final void requireArrayRange(String what, int arrayLength, int offset) {
        if (offset < 0 || offset > arrayLength || length > arrayLength - offset) {
            throw Checks.arrayRange(what, arrayLength, offset, length);
        }
    }

    /** A whole-array form, or a per-element array of a wait (status, values): exactly as many elements as the view. */
    final void requireArrayLength(String what, int arrayLength) {
        if (arrayLength != length) {
            throw Checks.arrayLength(what, arrayLength, length, this);
        }
    }

    final long sliceAddress(long from, long count) {
        requireLive();
        Checks.range("slice of " + this, from, count, length);
        return address + (from << shift);
    }

    final void requireElementType(CType newType, Class<?> elementType) {
        if (newType.elementType() != elementType) {
            throw new IllegalArgumentException(newType + " (" + newType.cName() + ") is not a " + elementType
                    + " type; a " + getClass().getSimpleName() + " view stands for " + CType.forElement(elementType));
        }
    }

    /** The library lacks {@code op} for this view's C type (the message is built here, off the hot path). */
    final UnsupportedOperationException unsupported(String operation, String op, boolean ctx, String typesWithIt) {
        String cFunction = "rocshmem_" + (ctx ? "ctx_" : "") + type.rocshmemName() + "_" + op;
        return new UnsupportedOperationException("rocSHMEM defines no host " + cFunction + ", so " + operation
                + " is not available for a view of C type " + type.cName() + "; it exists for: " + typesWithIt
                + " (re-type the view with as(CType))");
    }

    private RocshmemStateException closedError() {
        return new RocshmemStateException("this view's SymmetricBuffer was closed: " + this);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + length + " x " + type.cName() + " at 0x" + Long.toHexString(address)
                + (context == null ? "" : ", " + context) + (allocation.isReleased() ? ", closed" : "") + "]";
    }
}
