package org.rocshmem.api.rccl;

import java.util.Objects;
import org.bytedeco.javacpp.Pointer;
import org.rocshmem.api.CType;
import org.rocshmem.api.SymmetricArray;
import org.rocshmem.api.SymmetricBuffer;

/**
 * Device memory as RCCL sees it: an address, how many elements of {@link #type()} it holds, and the element type.
 * Every typed collective goes through this one description, so counts are checked the same way whatever the
 * memory came from:
 * <ul>
 * <li>{@link #of(Pointer, DataType)}: any JavaCPP pointer (hipMalloc'ed memory, a SymmetricBuffer view...); its
 *     extent is known when the pointer has a capacity or limit, otherwise it is not checked;</li>
 * <li>{@link #of(SymmetricArray)}: a typed view of rocSHMEM symmetric memory, whose length and C element type
 *     give the count and the RCCL type;</li>
 * <li>{@link #of(SymmetricBuffer, DataType)}: a rocSHMEM symmetric buffer (byte size / element size);</li>
 * <li>{@link #of(long, long, DataType)}: a raw address and element count (what typed views build on).</li>
 * </ul>
 * A DeviceBuffer holds its native pointer, so building it once and reusing it allocates nothing per call.
 * It does not own the memory.
 */
public final class DeviceBuffer {
    /** Element count meaning "unknown": the memory's extent cannot be checked. */
    public static final long UNKNOWN_LENGTH = -1;

    private final Pointer pointer;
    private final long elements;
    private final DataType type;

    private DeviceBuffer(Pointer pointer, long elements, DataType type) {
        this.pointer = pointer;
        this.elements = elements;
        this.type = type;
    }

    /** {@code elements} elements of {@code type} at {@code address} ({@link #UNKNOWN_LENGTH} if not known). */
    public static DeviceBuffer of(long address, long elements, DataType type) {
        Objects.requireNonNull(type, "type");
        if (address == 0) {
            throw new IllegalArgumentException("device buffer address is null");
        }
        if (elements < 0 && elements != UNKNOWN_LENGTH) {
            throw new IllegalArgumentException("negative element count " + elements);
        }
        return new DeviceBuffer(new AddressPointer(address), elements, type);
    }

    /** The memory {@code pointer} points at (from its position on), read as elements of {@code type}. */
    public static DeviceBuffer of(Pointer pointer, DataType type) {
        Objects.requireNonNull(type, "type");
        if (pointer == null || pointer.isNull()) {
            throw new IllegalArgumentException("device buffer pointer is null");
        }
        long start = pointer.address() + pointer.position() * (long) pointer.sizeof();
        return of(start, elementsAvailable(pointer, type), type);
    }

    /**
     * A typed view of symmetric memory (its address on this PE): its length is the element count and its C type
     * gives the RCCL type. RCCL has no 16-bit integer type, so short views are refused.
     */
    public static DeviceBuffer of(SymmetricArray view) {
        Objects.requireNonNull(view, "view");
        return of(view.address(), view.length(), dataTypeOf(view.type()));
    }

    /** The RCCL element type of a rocSHMEM C element type (same width and signedness, LP64). */
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

    /** The whole symmetric buffer as elements of {@code type} (its address on this PE). */
    public static DeviceBuffer of(SymmetricBuffer buffer, DataType type) {
        Objects.requireNonNull(buffer, "buffer");
        return of(buffer.address(), buffer.byteSize() / Objects.requireNonNull(type, "type").size(), type);
    }

    /** Elements {@code [offset, offset + length)} of this buffer. */
    public DeviceBuffer slice(long offset, long length) {
        if (offset < 0 || length < 0 || (elements != UNKNOWN_LENGTH && (offset > elements || length > elements - offset))) {
            throw new IndexOutOfBoundsException("slice [" + offset + ", " + offset + " + " + length + ") of " + this);
        }
        return of(address() + offset * type.size(), length, type);
    }

    public long address() {
        return pointer.address();
    }

    /** Element count, or {@link #UNKNOWN_LENGTH}. */
    public long elements() {
        return elements;
    }

    public DataType type() {
        return type;
    }

    Pointer pointer() {
        return pointer;
    }

    /** Throws unless {@code needed} elements fit (skipped when the extent is unknown). */
    void requireElements(String what, long needed) {
        if (elements != UNKNOWN_LENGTH && needed > elements) {
            throw new IndexOutOfBoundsException(what + " needs " + needed + " elements of " + type + " but "
                    + this + " holds " + elements);
        }
    }

    @Override
    public String toString() {
        return "DeviceBuffer[0x" + Long.toHexString(address()) + ", "
                + (elements == UNKNOWN_LENGTH ? "unknown length" : elements + " x " + type) + "]";
    }

    private static long elementsAvailable(Pointer p, DataType type) {
        long extent = p.limit() > 0 ? p.limit() : p.capacity();
        if (extent <= 0) {
            return UNKNOWN_LENGTH;
        }
        long bytes = Math.max(0, extent - p.position()) * p.sizeof();
        return bytes / type.size();
    }

    /** A pointer at a fixed address (JavaCPP sets addresses only from inside Pointer subclasses). */
    private static final class AddressPointer extends Pointer {
        AddressPointer(long address) {
            this.address = address;
        }
    }
}
