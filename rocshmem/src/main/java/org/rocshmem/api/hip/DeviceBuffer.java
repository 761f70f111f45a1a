package org.rocshmem.api.hip;

import java.util.Objects;
import org.bytedeco.javacpp.Pointer;

/**
 * Typed device memory: an address, how many elements of {@link #type()} it holds, and the element type. Every
 * typed device collective (RCCL's) goes through this one description, so counts are checked the same way whatever
 * the memory came from:
 * <ul>
 * <li>{@link #of(Pointer, DataType)}: any JavaCPP pointer (hipMalloc'ed memory...); its extent is known when the
 *     pointer has a capacity or limit, otherwise it is not checked;</li>
 * <li>{@link #of(DeviceRegion, DataType)}: any device region (a rocSHMEM symmetric view or buffer, a registered
 *     buffer, a {@link DeviceMemory}): its byte size over the element size (a symmetric view's
 *     {@code asDeviceBuffer()} also takes the type from the view);</li>
 * <li>{@link #of(long, long, DataType)}: a raw address and element count (what the others build on).</li>
 * </ul>
 * A DeviceBuffer holds its native pointer, so building it once and reusing it allocates nothing per call.
 * It does not own the memory.
 */
public final class DeviceBuffer implements DeviceRegion {
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

    /** The whole of {@code region} as elements of {@code type} (its known byte size / the element size). */
    public static DeviceBuffer of(DeviceRegion region, DataType type) {
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(type, "type");
        long bytes = region.byteSize();
        return of(region.address(), bytes < 0 ? UNKNOWN_LENGTH : bytes / type.size(), type);
    }

    /** Elements {@code [offset, offset + length)} of this buffer. */
    public DeviceBuffer slice(long offset, long length) {
        if (offset < 0 || length < 0 || (elements != UNKNOWN_LENGTH && (offset > elements || length > elements - offset))) {
            throw new IndexOutOfBoundsException("slice [" + offset + ", " + offset + " + " + length + ") of " + this);
        }
        return of(address() + offset * type.size(), length, type);
    }

    @Override
    public long address() {
        return pointer.address();
    }

    /** {@link #elements()} x the element size, or -1 when the length is unknown. */
    @Override
    public long byteSize() {
        return elements == UNKNOWN_LENGTH ? -1 : elements * type.size();
    }

    /** Element count, or {@link #UNKNOWN_LENGTH}. */
    public long elements() {
        return elements;
    }

    public DataType type() {
        return type;
    }

    /** A JavaCPP pointer at {@link #address()}, for native calls (the same object every time). */
    public Pointer pointer() {
        return pointer;
    }

    /** Throws unless {@code needed} elements fit (skipped when the extent is unknown). */
    public void requireElements(String what, long needed) {
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
