package org.rocshmem.api.hip;

import static org.rocshmem.global.hip.hipFree;
import static org.rocshmem.global.hip.hipMalloc;
import static org.rocshmem.global.hip.hipMemcpy;
import static org.rocshmem.global.hip.hipMemcpyDeviceToHost;
import static org.rocshmem.global.hip.hipMemcpyHostToDevice;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/**
 * Typed device memory from {@code hipMalloc}, with host copies through {@code hipMemcpy} and element conversion by
 * {@link ElementCodec}. {@link #close()} frees it ({@code hipFree}).
 */
public final class DeviceMemory implements DeviceRegion, AutoCloseable {
    private final Pointer base;
    private final long elements;
    private final DataType type;
    private final DeviceBuffer buffer;
    private boolean closed;

    private DeviceMemory(Pointer base, long elements, DataType type) {
        this.base = base;
        this.elements = elements;
        this.type = type;
        this.buffer = DeviceBuffer.of(base.address(), elements, type);
    }

    /** hipMalloc of {@code elements} elements of {@code type} (at least one byte). */
    public static DeviceMemory allocate(long elements, DataType type) {
        if (elements < 0) {
            throw new IllegalArgumentException("negative element count " + elements);
        }
        Objects.requireNonNull(type, "type");
        HipLibrary.load();
        if (elements > Long.MAX_VALUE / type.size()) {
            throw new IllegalArgumentException("DeviceMemory.allocate(" + elements + ", " + type + "): " + elements
                    + " elements of " + type.size() + " bytes exceed the largest size, " + Long.MAX_VALUE + " bytes");
        }
        long bytes = Math.max(1, elements * type.size());
        Pointer base = new Pointer();
        HipException.check(hipMalloc(base, bytes), "hipMalloc(" + bytes + " bytes)");
        return new DeviceMemory(base, elements, type);
    }

    public DeviceBuffer buffer() {
        requireOpen();
        return buffer;
    }

    /** The device address of element 0 (throws once freed). */
    @Override
    public long address() {
        requireOpen();
        return base.address();
    }

    @Override
    public long byteSize() {
        return elements * type.size();
    }

    public long elements() {
        return elements;
    }

    public DataType type() {
        return type;
    }

    /** Converts {@code values} to the element type and copies them to elements {@code [0, values.length)}. */
    public void copyFromHost(double... values) {
        requireOpen();
        if (values.length > elements) {
            throw new IndexOutOfBoundsException(values.length + " values do not fit " + elements + " elements");
        }
        try (BytePointer staging = new BytePointer((long) values.length * type.size())) {
            ByteBuffer b = staging.asByteBuffer().order(ByteOrder.nativeOrder());
            for (int i = 0; i < values.length; i++) {
                ElementCodec.put(type, b, i, values[i]);
            }
            HipException.check(hipMemcpy(base, staging, staging.capacity(), hipMemcpyHostToDevice), "hipMemcpy");
        }
    }

    /** Every element, converted to double. */
    public double[] copyToHost() {
        requireOpen();
        if (elements > Integer.MAX_VALUE) {
            throw new IllegalStateException(elements + " elements do not fit a Java array");
        }
        double[] values = new double[(int) elements];
        try (BytePointer staging = new BytePointer(Math.max(1, elements * type.size()))) {
            HipException.check(hipMemcpy(staging, base, elements * type.size(), hipMemcpyDeviceToHost), "hipMemcpy");
            ByteBuffer b = staging.asByteBuffer().order(ByteOrder.nativeOrder());
            for (int i = 0; i < values.length; i++) {
                values[i] = ElementCodec.get(type, b, i);
            }
        }
        return values;
    }

    /** hipFree (idempotent). Synchronize the streams that use the memory first. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        HipException.check(hipFree(base), "hipFree");
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("this DeviceMemory was freed");
        }
    }

    @Override
    public String toString() {
        return "DeviceMemory[" + elements + " x " + type + (closed ? ", freed" : "") + "]";
    }
}
