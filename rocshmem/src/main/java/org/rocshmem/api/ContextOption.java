package org.rocshmem.api;

import static org.rocshmem.global.rocshmem.ROCSHMEM_CTX_NOSTORE;
import static org.rocshmem.global.rocshmem.ROCSHMEM_CTX_SERIALIZED;
import static org.rocshmem.global.rocshmem.ROCSHMEM_CTX_SHARED;
import static org.rocshmem.global.rocshmem.ROCSHMEM_CTX_WG_PRIVATE;

import java.util.Set;

/** Options of {@code rocshmem_ctx_create}; none at all is {@code ROCSHMEM_CTX_ZERO}. */
public enum ContextOption {
    /** {@code ROCSHMEM_CTX_SERIALIZED}: the program never uses the context from two threads at once. */
    SERIALIZED,
    /** {@code ROCSHMEM_CTX_WG_PRIVATE}: used by one thread (on a GPU: one workgroup) only. */
    PRIVATE,
    /** {@code ROCSHMEM_CTX_NOSTORE}: quiet and fence need not complete stores issued through the context. */
    NOSTORE,
    /** {@code ROCSHMEM_CTX_SHARED}: may be used by several threads at once. */
    SHARED;

    /** The option bits of the set, read from the library's constants (they are configured values). */
    static long bits(Set<ContextOption> options) {
        long bits = 0;
        for (ContextOption option : options) {
            bits |= switch (option) {
                case SERIALIZED -> ROCSHMEM_CTX_SERIALIZED();
                case PRIVATE -> ROCSHMEM_CTX_WG_PRIVATE();
                case NOSTORE -> ROCSHMEM_CTX_NOSTORE();
                case SHARED -> ROCSHMEM_CTX_SHARED();
            };
        }
        return bits;
    }
}
