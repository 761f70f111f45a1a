package org.rocshmem.api.dlpack;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;

/**
 * DLTensor, read and written in place at its native address. Layout (dlpack.h, LP64): {@code void* data} at 0,
 * {@code DLDevice device} ({@code int32 device_type}, {@code int32 device_id}) at 8, {@code int32 ndim} at 16,
 * {@code DLDataType dtype} ({@code uint8 code}, {@code uint8 bits}, {@code uint16 lanes}) at 20,
 * {@code int64* shape} at 24, {@code int64* strides} at 32 (in elements; NULL means compact row-major),
 * {@code uint64 byte_offset} at 40; 48 bytes.
 *
 * <p>Written by hand from the specification rather than parsed: the structs hold no function JavaCPP must call,
 * so plain offset accessors need no JNI code and work unchanged in every native variant.
 */
public final class DLTensor extends Pointer {
    public static final int SIZE = 48;
    static final int DATA = 0;
    static final int DEVICE_TYPE = 8;
    static final int DEVICE_ID = 12;
    static final int NDIM = 16;
    static final int DTYPE_CODE = 20;
    static final int DTYPE_BITS = 21;
    static final int DTYPE_LANES = 22;
    static final int SHAPE = 24;
    static final int STRIDES = 32;
    static final int BYTE_OFFSET = 40;

    private final BytePointer bytes;

    DLTensor(long address) {
        this.address = address;
        this.capacity = SIZE;
        this.limit = SIZE;
        this.bytes = new BytePointer(this).capacity(SIZE);
    }

    /** The DLTensor at {@code address} (for instance inside a consumer's own struct). */
    public static DLTensor at(long address) {
        if (address == 0) {
            throw new IllegalArgumentException("DLTensor address is null");
        }
        return new DLTensor(address);
    }

    public long data() {
        return bytes.getLong(DATA);
    }

    public int deviceType() {
        return bytes.getInt(DEVICE_TYPE);
    }

    public int deviceId() {
        return bytes.getInt(DEVICE_ID);
    }

    public int ndim() {
        return bytes.getInt(NDIM);
    }

    public DLDataType dtype() {
        return new DLDataType(bytes.get(DTYPE_CODE) & 0xff, bytes.get(DTYPE_BITS) & 0xff,
                bytes.getShort(DTYPE_LANES) & 0xffff);
    }

    /** The extents, copied out of the {@code shape} array. */
    public long[] shape() {
        return readLongs(bytes.getLong(SHAPE), ndim(), "shape");
    }

    /** The strides in elements, or null when the producer left them NULL (compact row-major). */
    public long[] strides() {
        long at = bytes.getLong(STRIDES);
        return at == 0 ? null : readLongs(at, ndim(), "strides");
    }

    public long byteOffset() {
        return bytes.getLong(BYTE_OFFSET);
    }

    void write(long data, int deviceType, int deviceId, DLDataType dtype, long shapeAddress, long stridesAddress,
               int ndim) {
        bytes.putLong(DATA, data);
        bytes.putInt(DEVICE_TYPE, deviceType);
        bytes.putInt(DEVICE_ID, deviceId);
        bytes.putInt(NDIM, ndim);
        bytes.put(DTYPE_CODE, (byte) dtype.code());
        bytes.put(DTYPE_BITS, (byte) dtype.bits());
        bytes.putShort(DTYPE_LANES, (short) dtype.lanes());
        bytes.putLong(SHAPE, shapeAddress);
        bytes.putLong(STRIDES, stridesAddress);
        bytes.putLong(BYTE_OFFSET, 0);
    }

    private static long[] readLongs(long at, int n, String what) {
        if (n < 0) {
            throw new IllegalArgumentException("DLTensor ndim is negative: " + n);
        }
        if (n == 0) {
            return new long[0];
        }
        if (at == 0) {
            throw new IllegalArgumentException("DLTensor " + what + " is NULL with ndim " + n);
        }
        long[] values = new long[n];
        new LongPointer(new RawAddress(at, (long) n * Long.BYTES)).get(values);
        return values;
    }

    /** A pointer at a fixed address (JavaCPP sets addresses only from inside Pointer subclasses). */
    static final class RawAddress extends Pointer {
        RawAddress(long address, long bytes) {
            this.address = address;
            this.capacity = bytes;
            this.limit = bytes;
        }
    }
}
