package org.rocshmem.api;

import static org.rocshmem.global.rocshmem.rocshmem_buffer_unregister;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.rocshmem.api.hip.CallsNative;
import org.rocshmem.api.hip.DeviceRegion;

/**
 * Local (non-symmetric) memory registered with rocSHMEM (rocshmem_buffer_register) so it can be the local side
 * of put/get: the source of a put or the destination of a get. Registration is per PE, not collective; remote
 * PEs cannot address this memory. {@link #close()} unregisters (idempotent); it does not free the memory, which
 * stays the caller's.
 */
public final class RegisteredBuffer implements DeviceRegion, AutoCloseable {
    private final Rocshmem session;
    private final BytePointer address;
    private final long byteSize;
    /** Address of the first registered byte (the pointer's position counted in its own elements). */
    private final long start;
    private volatile boolean closed;
    /** Registered from a read-only ByteBuffer: a source only. */
    private boolean readOnly;

    RegisteredBuffer(Rocshmem session, Pointer address, long byteSize) {
        this.session = session;
        this.start = address.address() + address.position() * Math.max(1, address.sizeof());
        this.address = new BytePointer(address).capacity(byteSize);
        this.byteSize = byteSize;
    }

    /** The registered memory as a byte pointer with the registered capacity (pass it to put/get). */
    public BytePointer pointer() {
        if (closed) {
            throw new RocshmemStateException("this RegisteredBuffer was unregistered");
        }
        session.requireOpen();
        return new BytePointer(address).capacity(byteSize);
    }

    @Override
    public long byteSize() {
        return byteSize;
    }

    public boolean isClosed() {
        return closed;
    }

    @CallsNative("rocshmem_buffer_unregister")
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        session.requireOpen();
        closed = true;
        session.heap().forget(this);
        int status = rocshmem_buffer_unregister(address);
        if (status != 0) {
            throw new RocshmemException("rocshmem_buffer_unregister(0x" + Long.toHexString(address.address())
                    + ") failed with status " + status, status);
        }
    }

    /** After rocshmem_buffer_unregister_all: the library already forgot this registration. */
    void markUnregistered() {
        closed = true;
    }

    /** Finalize path: unregisters without throwing. */
    void unregisterQuietly() {
        if (!closed) {
            closed = true;
            rocshmem_buffer_unregister(address);
        }
    }

    /** The first registered byte (a kernel argument, a stream copy or an RCCL buffer takes it). */
    @Override
    public long address() {
        return start("address", 0);
    }

    /** Marks a registration of a read-only ByteBuffer, which no transfer may write into. */
    RegisteredBuffer readOnly() {
        readOnly = true;
        return this;
    }

    /** As {@link #start(String, long)} for a transfer that writes into the registered memory. */
    long writableStart(String what, long bytes) {
        long first = start(what, bytes);
        if (readOnly) {
            throw new IllegalArgumentException(what + ": this RegisteredBuffer registers a read-only ByteBuffer, which"
                    + " rocSHMEM would write into; register a writable direct buffer");
        }
        return first;
    }

    /** The first registered byte for a transfer of {@code bytes} bytes; checks it is still registered and fits. */
    long start(String what, long bytes) {
        if (closed) {
            throw new RocshmemStateException(what + ": this RegisteredBuffer was unregistered");
        }
        session.requireOpen();
        if (bytes > byteSize) {
            throw new IndexOutOfBoundsException(what + ": " + bytes + " bytes do not fit the " + byteSize
                    + " registered bytes");
        }
        return start;
    }
}
