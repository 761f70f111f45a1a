package org.rocshmem.api;

/**
 * rocSHMEM's pool of host contexts: {@code ROCSHMEM_MAX_NUM_HOST_CONTEXTS} (1 by default since rocSHMEM 3.0), the
 * library's own default host context included. Past it rocshmem_ctx_create still returns 0 and the library asserts
 * or reads past its pool, so the API counts and refuses first. The limit is the one {@link HostContextProvisioning}
 * reports: the variable's value where the environment sets it, else what the API provisioned before rocSHMEM loaded,
 * on both variants (the emulator enforces the same pool).
 */
final class HostContextLimit {
    static final String VARIABLE = "ROCSHMEM_MAX_NUM_HOST_CONTEXTS";
    /** rocSHMEM 3.x's default. */
    static final long DEFAULT = 1;

    private HostContextLimit() {
    }

    /** Throws unless the pool has room for one more context beside the {@code inUse} ones (the library's included). */
    static void require(int inUse, String what) {
        long limit = limit();
        if (inUse + 1 > limit) {
            String fix = HostContextProvisioning.explicit()
                    ? "Set " + VARIABLE + "=" + (inUse + 1) + " or more in the environment of every PE"
                    : "Ask for " + (inUse + 1 - HostContextProvisioning.API_CONTEXTS) + " or more contexts with"
                            + " Rocshmem.init(InitOptions.hostContexts(n)), or set " + VARIABLE + "=" + (inUse + 1)
                            + " or more in the environment of every PE";
            throw new RocshmemException("rocSHMEM allows " + VARIABLE + "=" + limit + " host context(s), its own"
                    + " default context included, and " + inUse + " are in use; creating " + what + " would exceed the pool"
                    + " (the library does not report it: it asserts or corrupts memory). " + fix);
        }
    }

    static long limit() {
        return HostContextProvisioning.limit();
    }

    static long parse(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new RocshmemException(VARIABLE + "=" + value + " is not a number");
        }
    }
}
