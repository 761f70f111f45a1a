package org.rocshmem.api.dlpack;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/**
 * DLManagedTensorVersioned (DLPack 1.0 and later): {@code DLPackVersion version} ({@code uint32 major},
 * {@code uint32 minor}) at 0, {@code void* manager_ctx} at 8, {@code void (*deleter)(DLManagedTensorVersioned*)}
 * at 16, {@code uint64 flags} at 24, {@code DLTensor dl_tensor} at 32; 80 bytes. A view of the struct at its native
 * address; it owns nothing.
 */
public final class DLManagedTensorVersioned extends Pointer {
    public static final int SIZE = 80;
    static final int MAJOR = 0;
    static final int MINOR = 4;
    static final int MANAGER_CTX = 8;
    static final int DELETER = 16;
    static final int FLAGS = 24;
    static final int DL_TENSOR = 32;

    private final BytePointer bytes;

    DLManagedTensorVersioned(long address) {
        this.address = address;
        this.capacity = SIZE;
        this.limit = SIZE;
        this.bytes = new BytePointer(this).capacity(SIZE);
    }

    /** The DLManagedTensorVersioned at {@code address}, as a producer handed it over. */
    public static DLManagedTensorVersioned at(long address) {
        if (address == 0) {
            throw new IllegalArgumentException("DLManagedTensorVersioned address is null");
        }
        return new DLManagedTensorVersioned(address);
    }

    public int majorVersion() {
        return bytes.getInt(MAJOR);
    }

    public int minorVersion() {
        return bytes.getInt(MINOR);
    }

    public long managerCtx() {
        return bytes.getLong(MANAGER_CTX);
    }

    /** Address of the deleter function; 0 when the producer gave none. */
    public long deleter() {
        return bytes.getLong(DELETER);
    }

    public long flags() {
        return bytes.getLong(FLAGS);
    }

    public DLTensor dlTensor() {
        return new DLTensor(address + DL_TENSOR);
    }

    void writeHeader(long managerCtx, long deleter, long flags) {
        bytes.putInt(MAJOR, DLPack.MAJOR_VERSION);
        bytes.putInt(MINOR, DLPack.MINOR_VERSION);
        bytes.putLong(MANAGER_CTX, managerCtx);
        bytes.putLong(DELETER, deleter);
        bytes.putLong(FLAGS, flags);
    }
}
