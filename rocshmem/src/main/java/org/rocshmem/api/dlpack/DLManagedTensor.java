package org.rocshmem.api.dlpack;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;

/**
 * DLManagedTensor (the unversioned form every DLPack consumer accepts): {@code DLTensor dl_tensor} at 0,
 * {@code void* manager_ctx} at 48, {@code void (*deleter)(DLManagedTensor*)} at 56; 64 bytes. A view of the
 * struct at its native address; it owns nothing.
 */
public final class DLManagedTensor extends Pointer {
    public static final int SIZE = 64;
    static final int MANAGER_CTX = 48;
    static final int DELETER = 56;

    private final BytePointer bytes;

    DLManagedTensor(long address) {
        this.address = address;
        this.capacity = SIZE;
        this.limit = SIZE;
        this.bytes = new BytePointer(this).capacity(SIZE);
    }

    /** The DLManagedTensor at {@code address}, as a producer handed it over. */
    public static DLManagedTensor at(long address) {
        if (address == 0) {
            throw new IllegalArgumentException("DLManagedTensor address is null");
        }
        return new DLManagedTensor(address);
    }

    public DLTensor dlTensor() {
        return new DLTensor(address);
    }

    public long managerCtx() {
        return bytes.getLong(MANAGER_CTX);
    }

    /** Address of the deleter function; 0 when the producer gave none. */
    public long deleter() {
        return bytes.getLong(DELETER);
    }

    void writeManagement(long managerCtx, long deleter) {
        bytes.putLong(MANAGER_CTX, managerCtx);
        bytes.putLong(DELETER, deleter);
    }
}
