package org.rocshmem.api.dlpack;

import org.bytedeco.javacpp.Pointer;

/**
 * A DLPack tensor this process produced ({@link Dlpack#export}): one native block holding the managed struct,
 * the shape and the strides. Its deleter is the C library's {@code free} of that block alone: it never frees
 * the memory the tensor describes (symmetric memory is freed collectively, by its own {@code close}).
 *
 * <p>Ownership follows DLPack: {@link #handOff()} gives the struct's address to a consumer, which calls the deleter
 * once when done; until then this object owns it and {@link #close()} frees it. Both are idempotent and safe to mix:
 * after a hand-off, close does nothing. The described memory must outlive every consumer's use of it.
 */
public final class ExportedTensor implements AutoCloseable {
    private final long block;
    private final boolean versioned;
    private final Object source;
    private boolean owned = true;

    ExportedTensor(long block, boolean versioned, Object source) {
        this.block = block;
        this.versioned = versioned;
        this.source = source;
    }

    /** True for a {@link DLManagedTensorVersioned}, false for a {@link DLManagedTensor}. */
    public boolean isVersioned() {
        return versioned;
    }

    /** The described tensor (data, device, dtype, shape, strides). */
    public synchronized DLTensor dlTensor() {
        requireOwned("dlTensor");
        return versioned ? new DLManagedTensorVersioned(block).dlTensor() : new DLTensor(block);
    }

    /** The unversioned struct; throws for a versioned export. */
    public synchronized DLManagedTensor managed() {
        requireOwned("managed");
        if (versioned) {
            throw new IllegalStateException("this export is a DLManagedTensorVersioned: use versionedStruct()");
        }
        return new DLManagedTensor(block);
    }

    /** The versioned struct; throws for an unversioned export. */
    public synchronized DLManagedTensorVersioned versionedStruct() {
        requireOwned("versionedStruct");
        if (!versioned) {
            throw new IllegalStateException("this export is a DLManagedTensor: use managed()");
        }
        return new DLManagedTensorVersioned(block);
    }

    /**
     * Gives the struct to a consumer: returns its address, which the consumer takes as a {@code DLManagedTensor*}
     * (or {@code DLManagedTensorVersioned*}) and later passes to the deleter. This object no longer owns it.
     */
    public synchronized long handOff() {
        requireOwned("handOff");
        owned = false;
        return block;
    }

    /** The object the export describes (a view or buffer), kept reachable while this export lives. */
    public Object source() {
        return source;
    }

    /** Frees the struct unless it was handed off; never touches the described memory. Idempotent. */
    @Override
    public synchronized void close() {
        if (owned) {
            owned = false;
            Pointer.free(new DLTensor.RawAddress(block, 1));
        }
    }

    private void requireOwned(String what) {
        if (!owned) {
            throw new IllegalStateException(what + ": this DLPack export was handed off or closed");
        }
    }
}
