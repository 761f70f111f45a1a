package org.rocshmem.api;

import static org.rocshmem.global.rocshmem.ROCSHMEM_INIT_WITH_UNIQUEID;
import static org.rocshmem.global.rocshmem.ROCSHMEM_UNIQUE_ID_BYTES;
import static org.rocshmem.global.rocshmem.rocshmem_get_uniqueid;
import static org.rocshmem.global.rocshmem.rocshmem_init_attr;
import static org.rocshmem.global.rocshmem.rocshmem_set_attr_uniqueid_args;

import org.bytedeco.javacpp.BytePointer;
import org.rocshmem.rocshmem.rocshmem_init_attr_t;

/** The unique-id calls: create an id on the root, then init every rank with it. */
final class UniqueIds {
    /** sizeof(rocshmem_uniqueid_t). */
    static final int BYTES = ROCSHMEM_UNIQUE_ID_BYTES;

    private UniqueIds() {
    }

    static byte[] create() {
        try (BytePointer uid = new BytePointer(BYTES)) {
            uid.zero();
            check(rocshmem_get_uniqueid(uid), "rocshmem_get_uniqueid");
            byte[] bytes = new byte[BYTES];
            uid.get(bytes);
            return bytes;
        }
    }

    static void requireValid(byte[] uid) {
        java.util.Objects.requireNonNull(uid, "uid");
        if (uid.length != BYTES) {
            throw new IllegalArgumentException("invalid unique id size: a rocSHMEM unique id has " + BYTES
                    + " bytes, got " + (uid == null ? "null" : uid.length));
        }
    }

    /** rocshmem_set_attr_uniqueid_args + rocshmem_init_attr(ROCSHMEM_INIT_WITH_UNIQUEID). */
    static void initAttr(int rank, int nranks, byte[] uid) {
        requireValid(uid);
        try (BytePointer id = new BytePointer(uid); rocshmem_init_attr_t attr = new rocshmem_init_attr_t()) {
            attr.zero();
            check(rocshmem_set_attr_uniqueid_args(rank, nranks, id, attr), "rocshmem_set_attr_uniqueid_args(rank="
                    + rank + ", nranks=" + nranks + ")");
            check(rocshmem_init_attr(ROCSHMEM_INIT_WITH_UNIQUEID(), attr), "rocshmem_init_attr(rank=" + rank
                    + ", nranks=" + nranks + ")");
        }
    }

    private static void check(int status, String call) {
        if (status != 0) {
            throw new RocshmemException(call + " failed with status " + status
                    + " (rocSHMEM prints the reason on stderr)");
        }
    }
}
