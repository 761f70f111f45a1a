package org.rocshmem.api;

import static org.rocshmem.global.rocshmem.ROCSHMEM_THREAD_FUNNELED;
import static org.rocshmem.global.rocshmem.ROCSHMEM_THREAD_MULTIPLE;
import static org.rocshmem.global.rocshmem.ROCSHMEM_THREAD_SERIALIZED;
import static org.rocshmem.global.rocshmem.ROCSHMEM_THREAD_SINGLE;
import static org.rocshmem.global.rocshmem.ROCSHMEM_THREAD_WG_FUNNELED;

/** The thread levels of rocSHMEM ({@code ROCSHMEM_THREAD_*}), weakest first. */
public enum ThreadLevel {
    SINGLE(ROCSHMEM_THREAD_SINGLE),
    FUNNELED(ROCSHMEM_THREAD_FUNNELED),
    /** rocSHMEM's own level: one thread per GPU workgroup makes the calls. */
    WG_FUNNELED(ROCSHMEM_THREAD_WG_FUNNELED),
    SERIALIZED(ROCSHMEM_THREAD_SERIALIZED),
    MULTIPLE(ROCSHMEM_THREAD_MULTIPLE);

    final int code;

    ThreadLevel(int code) {
        this.code = code;
    }

    /** Throws unless this level, the one provided, is at least {@code requested} (levels are ordered weakest first). */
    void requireAtLeast(ThreadLevel requested) {
        if (compareTo(requested) < 0) {
            throw new RocshmemException("requested thread level " + requested + " but rocSHMEM provides " + this
                    + " (rocshmem_query_thread)", code);
        }
    }

    static ThreadLevel of(int code) {
        for (ThreadLevel level : values()) {
            if (level.code == code) {
                return level;
            }
        }
        throw new RocshmemException("rocshmem_query_thread reported an unknown thread level " + code, code);
    }
}
