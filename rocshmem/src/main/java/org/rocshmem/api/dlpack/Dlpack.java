package org.rocshmem.api.dlpack;

import java.util.Arrays;
import org.bytedeco.javacpp.Pointer;
import org.rocshmem.api.RegisteredBuffer;
import org.rocshmem.api.SymmetricArray;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.hip.DeviceBuffer;

/**
 * DLPack export and import, for any framework that speaks the format (PyTorch, JAX, CuPy, NumPy through their
 * native layers, or C++ code of one's own). Nothing here depends on a framework.
 *
 * <p>Export describes memory of this project as a {@link DLManagedTensor} or {@link DLManagedTensorVersioned}
 * without copying it: a symmetric view or buffer, a device buffer or a registered buffer. The device is kDLROCM
 * (the current HIP device) on a GPU and kDLCPU on the emulator, whose emulated device memory is host memory. The
 * deleter frees the struct only, never the memory it describes ({@link ExportedTensor}).
 *
 * <p>Import reads a producer's struct and gives its memory as local memory ({@link ImportedTensor#pointer()}) for
 * {@code putmem}/{@code getmem} and as a kernel argument. The import is DLPack's consumer: it owns the struct, and
 * {@link ImportedTensor#close()} calls the producer's deleter.
 */
public final class Dlpack {
    private static volatile long free;

    private Dlpack() {
    }

    // ---------------------------------------------------------------- export

    /** A symmetric view as a 1-D tensor of its elements (DLManagedTensor). */
    public static ExportedTensor export(SymmetricArray view) {
        return export(view, false, new long[] {view.length()});
    }

    /** A symmetric view reshaped to {@code shape} (the element counts must match; DLManagedTensor). */
    public static ExportedTensor export(SymmetricArray view, long... shape) {
        return export(view, false, shape);
    }

    /** {@link #export(SymmetricArray, long...)} as a DLManagedTensorVersioned. */
    public static ExportedTensor exportVersioned(SymmetricArray view, long... shape) {
        return export(view, true, shape.length == 0 ? new long[] {view.length()} : shape);
    }

    /** A symmetric buffer (or a peer view of one) as a tensor of {@code dtype} and {@code shape}. */
    public static ExportedTensor export(SymmetricBuffer buffer, DLDataType dtype, long... shape) {
        return export(buffer, dtype, false, shape);
    }

    /** {@link #export(SymmetricBuffer, DLDataType, long...)} as a DLManagedTensorVersioned. */
    public static ExportedTensor exportVersioned(SymmetricBuffer buffer, DLDataType dtype, long... shape) {
        return export(buffer, dtype, true, shape);
    }

    /** A device buffer of known length as a 1-D tensor of its elements, or of {@code shape}. */
    public static ExportedTensor export(DeviceBuffer buffer, long... shape) {
        return export(buffer, false, shape);
    }

    /** {@link #export(DeviceBuffer, long...)} as a DLManagedTensorVersioned. */
    public static ExportedTensor exportVersioned(DeviceBuffer buffer, long... shape) {
        return export(buffer, true, shape);
    }

    /** A registered buffer as a tensor of {@code dtype} and {@code shape} (its whole registered extent). */
    public static ExportedTensor export(RegisteredBuffer buffer, DLDataType dtype, long... shape) {
        return export(buffer, dtype, false, shape);
    }

    /** {@link #export(RegisteredBuffer, DLDataType, long...)} as a DLManagedTensorVersioned. */
    public static ExportedTensor exportVersioned(RegisteredBuffer buffer, DLDataType dtype, long... shape) {
        return export(buffer, dtype, true, shape);
    }

    private static ExportedTensor export(SymmetricArray view, boolean versioned, long[] shape) {
        if (view == null) {
            throw new IllegalArgumentException("view is null");
        }
        long address = view.address(); // throws once the buffer is closed or the session ended
        return build(address, view.byteSize(), MemoryDevice.ofSymmetric(), DLDataType.of(view.type()), shape,
                versioned, view);
    }

    private static ExportedTensor export(SymmetricBuffer buffer, DLDataType dtype, boolean versioned, long[] shape) {
        if (buffer == null) {
            throw new IllegalArgumentException("buffer is null");
        }
        if (buffer.isClosed()) {
            throw new IllegalStateException("cannot export " + buffer + ": it is closed");
        }
        return build(buffer.address(), buffer.byteSize(), MemoryDevice.ofSymmetric(), dtype, shape, versioned,
                buffer);
    }

    private static ExportedTensor export(DeviceBuffer buffer, boolean versioned, long[] shape) {
        if (buffer == null) {
            throw new IllegalArgumentException("device buffer is null");
        }
        if (buffer.elements() == DeviceBuffer.UNKNOWN_LENGTH) {
            throw new IllegalArgumentException(buffer + " has no known length: build it with DeviceBuffer.of(address,"
                    + " elements, type) to export it");
        }
        long bytes = buffer.elements() * buffer.type().size();
        return build(buffer.address(), bytes, MemoryDevice.of(buffer.address()), DLDataType.of(buffer.type()),
                shape.length == 0 ? new long[] {buffer.elements()} : shape, versioned, buffer);
    }

    private static ExportedTensor export(RegisteredBuffer buffer, DLDataType dtype, boolean versioned, long[] shape) {
        if (buffer == null) {
            throw new IllegalArgumentException("registered buffer is null");
        }
        long address = buffer.pointer().address(); // throws once unregistered
        return build(address, buffer.byteSize(), MemoryDevice.of(address), dtype, shape, versioned, buffer);
    }

    private static ExportedTensor build(long data, long bytes, MemoryDevice device, DLDataType dtype, long[] shape,
                                        boolean versioned, Object source) {
        if (dtype == null) {
            throw new IllegalArgumentException("dtype is null");
        }
        if (dtype.bits() % 8 != 0) {
            throw new IllegalArgumentException("dtype " + dtype + " is a sub-byte type, which this package does not"
                    + " export");
        }
        long elements = elements(shape);
        if (elements * dtype.bytes() != bytes) {
            throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " of " + dtype + " holds "
                    + elements * dtype.bytes() + " bytes, but the exported memory has " + bytes);
        }
        long base = allocate(data, device.type(), device.id(), dtype, shape, contiguousStrides(shape), 0,
                freeFunction(), versioned);
        return new ExportedTensor(base, versioned, source);
    }

    /**
     * A {@code DLManagedTensor} of a producer's own, for bridges to frameworks (the torch module's): one malloc'd
     * block holding the struct, then {@code shape}, then {@code strides} (in elements), with the given
     * {@code manager_ctx} and deleter. The deleter must free the block ({@code free(self)}) besides whatever it
     * releases. Returns the block's address, which is the struct's.
     */
    public static long managedTensor(long data, int deviceType, int deviceId, DLDataType dtype, long[] shape,
                                     long[] strides, long managerCtx, long deleter) {
        if (dtype == null) {
            throw new IllegalArgumentException("dtype is null");
        }
        elements(shape);
        if (strides == null || strides.length != shape.length) {
            throw new IllegalArgumentException("strides must have one entry per dimension of shape "
                    + Arrays.toString(shape));
        }
        return allocate(data, deviceType, deviceId, dtype, shape, strides, managerCtx, deleter, false);
    }

    private static long allocate(long data, int deviceType, int deviceId, DLDataType dtype, long[] shape,
                                 long[] strides, long managerCtx, long deleter, boolean versioned) {
        int ndim = shape.length;
        int header = versioned ? DLManagedTensorVersioned.SIZE : DLManagedTensor.SIZE;
        long size = header + 2L * ndim * Long.BYTES;
        Pointer block = Pointer.malloc(size);
        if (block == null || block.isNull()) {
            throw new OutOfMemoryError("malloc of a " + size + "-byte DLPack struct failed");
        }
        long base = block.address();
        Pointer.memset(block, 0, size);
        long shapeAt = base + header;
        long stridesAt = shapeAt + (long) ndim * Long.BYTES;
        if (ndim > 0) {
            new org.bytedeco.javacpp.LongPointer(new DLTensor.RawAddress(shapeAt, 2L * ndim * Long.BYTES))
                    .put(shape).position(ndim).put(strides);
        }
        DLTensor tensor;
        if (versioned) {
            DLManagedTensorVersioned struct = new DLManagedTensorVersioned(base);
            struct.writeHeader(managerCtx, deleter, 0);
            tensor = struct.dlTensor();
        } else {
            DLManagedTensor struct = new DLManagedTensor(base);
            struct.writeManagement(managerCtx, deleter);
            tensor = struct.dlTensor();
        }
        tensor.write(data, deviceType, deviceId, dtype, ndim == 0 ? 0 : shapeAt, ndim == 0 ? 0 : stridesAt, ndim);
        return base;
    }

    /** Compact row-major strides of {@code shape}, in elements. */
    public static long[] contiguousStrides(long[] shape) {
        long[] strides = new long[shape.length];
        long stride = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            strides[i] = stride;
            stride *= shape[i];
        }
        return strides;
    }

    static long elements(long[] shape) {
        if (shape == null) {
            throw new IllegalArgumentException("shape is null");
        }
        long elements = 1;
        for (long extent : shape) {
            if (extent < 0) {
                throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " has a negative extent");
            }
            elements = Math.multiplyExact(elements, extent);
        }
        return elements;
    }

    /** The C library's free: the deleter of every export, which frees the struct block and nothing else. */
    private static long freeFunction() {
        long f = free;
        if (f == 0) {
            Pointer p = org.bytedeco.javacpp.Loader.addressof("free");
            if (p == null || p.isNull()) {
                throw new IllegalStateException("cannot find the C library's free() for the DLPack deleter");
            }
            free = f = p.address();
        }
        return f;
    }

    /** Address of the deleter every export carries (the C library's free), for checks by consumers and tests. */
    public static long exportDeleter() {
        return freeFunction();
    }

    // ---------------------------------------------------------------- import

    /**
     * Takes a producer's {@code DLManagedTensor*}: its memory as local memory until {@link ImportedTensor#close()},
     * which calls the producer's deleter. If the tensor is refused, the struct stays the caller's.
     */
    public static ImportedTensor importManaged(long managedTensorAddress) {
        DLManagedTensor struct = DLManagedTensor.at(managedTensorAddress);
        return ImportedTensor.of(managedTensorAddress, struct.deleter(), struct.dlTensor(), false);
    }

    /** Takes a producer's {@code DLManagedTensorVersioned*}, as {@link #importManaged(long)}. */
    public static ImportedTensor importVersioned(long versionedTensorAddress) {
        DLManagedTensorVersioned struct = DLManagedTensorVersioned.at(versionedTensorAddress);
        if (struct.majorVersion() != DLPack.MAJOR_VERSION) {
            throw new IllegalArgumentException("DLPack major version " + struct.majorVersion() + " is not supported:"
                    + " this package reads major version " + DLPack.MAJOR_VERSION);
        }
        if ((struct.flags() & DLPack.FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED) != 0) {
            throw new IllegalArgumentException("the tensor is a padded sub-byte type, which this package does not"
                    + " import");
        }
        return ImportedTensor.of(versionedTensorAddress, struct.deleter(), struct.dlTensor(),
                (struct.flags() & DLPack.FLAG_BITMASK_READ_ONLY) != 0);
    }

    /** Calls the deleter of the {@code DLManagedTensor*} at {@code managedTensor} (what a consumer does when done). */
    public static void delete(long managedTensor) {
        Deleters.call(DLManagedTensor.at(managedTensor).deleter(), managedTensor);
    }

    /** Calls the deleter of the {@code DLManagedTensorVersioned*} at {@code versionedTensor}. */
    public static void deleteVersioned(long versionedTensor) {
        Deleters.call(DLManagedTensorVersioned.at(versionedTensor).deleter(), versionedTensor);
    }
}
