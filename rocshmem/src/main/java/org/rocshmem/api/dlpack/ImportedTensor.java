package org.rocshmem.api.dlpack;

import java.util.Arrays;
import org.bytedeco.javacpp.BytePointer;

/**
 * A producer's DLPack tensor as local memory: {@link #pointer()} is what {@code putmem}/{@code getmem} and kernel
 * launches take. Only compact row-major tensors on a device this native variant addresses are accepted (kDLCPU on
 * the emulator; kDLROCM, kDLROCMHost or kDLCPU on a GPU).
 *
 * <p>As DLPack's consumer it owns the struct it was given: {@link #close()} calls the producer's deleter, once. The
 * memory is valid until then.
 */
public final class ImportedTensor implements AutoCloseable {
    private final long address;
    private final long byteSize;
    private final long[] shape;
    private final DLDataType dtype;
    private final int deviceType;
    private final int deviceId;
    private final boolean readOnly;
    /** The producer's struct and its deleter (called at close). */
    private final long struct;
    private final long deleter;
    private boolean closed;

    private ImportedTensor(long struct, long deleter, long address, long byteSize, long[] shape, DLDataType dtype, int deviceType, int deviceId,
                           boolean readOnly) {
        this.address = address;
        this.byteSize = byteSize;
        this.shape = shape;
        this.dtype = dtype;
        this.deviceType = deviceType;
        this.deviceId = deviceId;
        this.readOnly = readOnly;
        this.struct = struct;
        this.deleter = deleter;
    }

    static ImportedTensor of(long struct, long deleter, DLTensor tensor, boolean readOnly) {
        int deviceType = tensor.deviceType();
        if (!MemoryDevice.usable(deviceType)) {
            throw new IllegalArgumentException("DLPack tensor lives on " + DLPack.deviceTypeName(deviceType)
                    + (MemoryDevice.emulator() ? ", but the emulator's local memory is host memory (kDLCPU)"
                    : ", which rocSHMEM on a ROCm GPU cannot address (kDLROCM, kDLROCMHost or kDLCPU)"));
        }
        DLDataType dtype = tensor.dtype();
        if (dtype.bits() % 8 != 0) {
            throw new IllegalArgumentException("DLPack dtype " + dtype + " is a sub-byte type, which is not imported");
        }
        long[] shape = tensor.shape();
        long elements = Dlpack.elements(shape);
        long[] strides = tensor.strides();
        if (strides != null && elements > 1) {
            long expected = 1;
            for (int i = shape.length - 1; i >= 0; i--) {
                if (shape[i] != 1 && strides[i] != expected) {
                    throw new IllegalArgumentException("DLPack tensor is not contiguous: strides "
                            + Arrays.toString(strides) + " for shape " + Arrays.toString(shape)
                            + "; make it compact row-major (e.g. .contiguous()) before importing it");
                }
                expected *= shape[i];
            }
        }
        if (tensor.data() == 0 && elements > 0) {
            throw new IllegalArgumentException("DLPack tensor has NULL data and " + elements + " elements");
        }
        return new ImportedTensor(struct, deleter, tensor.data() + tensor.byteOffset(), elements * dtype.bytes(), shape, dtype,
                deviceType, tensor.deviceId(), readOnly);
    }

    /** The first byte (data + byte_offset) as a pointer whose capacity is the tensor's size in bytes. */
    public synchronized BytePointer pointer() {
        if (closed) {
            throw new IllegalStateException("this imported DLPack tensor was closed: its producer may have freed it");
        }
        return new BytePointer(new DLTensor.RawAddress(address, byteSize)).capacity(byteSize);
    }

    /** {@link #pointer()} for a destination (getmem, a kernel's output); refuses a tensor flagged read-only. */
    public BytePointer writablePointer() {
        if (readOnly) {
            throw new IllegalStateException("the DLPack tensor is flagged read-only (DLPACK_FLAG_BITMASK_READ_ONLY):"
                    + " it cannot be a getmem destination or a kernel output");
        }
        return pointer();
    }

    public long address() {
        return address;
    }

    public long byteSize() {
        return byteSize;
    }

    public long[] shape() {
        return shape.clone();
    }

    public DLDataType dtype() {
        return dtype;
    }

    public int deviceType() {
        return deviceType;
    }

    public int deviceId() {
        return deviceId;
    }

    public boolean isReadOnly() {
        return readOnly;
    }

    /** Gives the tensor back: calls the producer's deleter (once; later calls do nothing). */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            Deleters.call(deleter, struct);
        }
    }

    @Override
    public String toString() {
        return "ImportedTensor[" + dtype + " " + Arrays.toString(shape) + " on " + DLPack.deviceTypeName(deviceType)
                + ":" + deviceId + " at 0x" + Long.toHexString(address) + (readOnly ? ", read-only" : "") + "]";
    }
}
