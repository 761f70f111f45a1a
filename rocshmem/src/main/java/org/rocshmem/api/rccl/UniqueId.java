package org.rocshmem.api.rccl;

import static org.rocshmem.global.rccl.NCCL_UNIQUE_ID_BYTES;
import static org.rocshmem.global.rccl.ncclGetUniqueId;

import java.util.Arrays;
import java.util.HexFormat;
import org.rocshmem.rccl.ncclUniqueId;

/** The 128 bytes of an {@code ncclUniqueId}: created once ({@link Rccl#createUniqueId()}), given to every rank. */
public final class UniqueId {
    /** sizeof(ncclUniqueId). */
    public static final int BYTES = NCCL_UNIQUE_ID_BYTES;

    private final byte[] bytes;

    private UniqueId(byte[] bytes) {
        this.bytes = bytes;
    }

    /** Wraps bytes received from another rank (copied). */
    public static UniqueId of(byte[] bytes) {
        if (bytes == null || bytes.length != BYTES) {
            throw new IllegalArgumentException("an ncclUniqueId has " + BYTES + " bytes, got "
                    + (bytes == null ? "null" : bytes.length));
        }
        return new UniqueId(bytes.clone());
    }

    static UniqueId create() {
        try (ncclUniqueId id = new ncclUniqueId()) {
            Rccl.check(ncclGetUniqueId(id), "ncclGetUniqueId", null);
            byte[] bytes = new byte[BYTES];
            id.internal().get(bytes);
            return new UniqueId(bytes);
        }
    }

    /** A copy of the bytes. */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** A native ncclUniqueId holding these bytes (the caller closes it). */
    ncclUniqueId toNative() {
        ncclUniqueId id = new ncclUniqueId();
        id.internal().put(bytes);
        return id;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof UniqueId other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /** Shows only a prefix: the id lets anyone join the communicator. */
    @Override
    public String toString() {
        return "UniqueId[" + HexFormat.of().formatHex(bytes, 0, 8) + "...]";
    }
}
