package org.rocshmem.api;

/**
 * Sizes rocSHMEM's host-context pool ({@value HostContextLimit#VARIABLE}) for what the API itself needs, so the
 * session's own context never comes out of the program's budget. rocSHMEM 3.x defaults the pool to 1, which its own
 * default context fills, and reads the variable once, while its library loads (the emulator reads it at init). So
 * when the variable is not set, the API sets it in the C environment just before rocSHMEM's library loads: rocSHMEM's
 * default context, the session's context of the host collectives, and the program's own contexts
 * ({@link InitOptions#hostContexts(int)}, {@value #DEFAULT_PROGRAM_CONTEXTS} by default). A value in the environment
 * always wins: the API then provisions nothing and {@link HostContextLimit} refuses what exceeds it.
 */
final class HostContextProvisioning {
    /** rocSHMEM's own default context and the session's context of the host collectives. */
    static final int API_CONTEXTS = 2;
    /** The program's own contexts when init asks for no number. */
    static final int DEFAULT_PROGRAM_CONTEXTS = 4;

    /** Java's copy of the environment is the one the process started with: the user's value, never ours. */
    private static final String EXPLICIT = System.getenv(HostContextLimit.VARIABLE);
    private static long provisioned;
    private static int programContexts;

    private HostContextProvisioning() {
    }

    /** Whether the user's environment names the pool size. */
    static boolean explicit() {
        return EXPLICIT != null && !EXPLICIT.isBlank();
    }

    /**
     * Before rocSHMEM's library loads: sets the pool for {@code contexts} of the program's own, unless the
     * environment names it. Once rocSHMEM has read the variable, a larger request can no longer reach it and throws.
     */
    static synchronized void provision(int contexts) {
        if (explicit()) {
            return;
        }
        long needed = API_CONTEXTS + (long) contexts;
        if (provisioned != 0) {
            if (needed > provisioned) {
                throw new RocshmemException("InitOptions.hostContexts(" + contexts + ") came after rocSHMEM's library"
                        + " loaded and read " + HostContextLimit.VARIABLE + "=" + provisioned + " (room for "
                        + programContexts + " contexts of the program's own); pass the option to the first init, before"
                        + " any other rocSHMEM call, or set " + HostContextLimit.VARIABLE + "=" + needed
                        + " in the environment of every PE");
            }
            return;
        }
        if (ProcessEnvironment.setenv(HostContextLimit.VARIABLE, Long.toString(needed), 1) != 0) {
            throw new RocshmemException("could not set " + HostContextLimit.VARIABLE + "=" + needed
                    + " in the process environment; set it in the environment of every PE");
        }
        provisioned = needed;
        programContexts = contexts;
    }

    /** Before rocSHMEM's library loads, when no init asked for a number: the default, unless already provisioned. */
    static synchronized void provisionDefault() {
        if (provisioned == 0) {
            provision(DEFAULT_PROGRAM_CONTEXTS);
        }
    }

    /** Whether the pool holds a slot for the session's context that the program's contexts may not take. */
    static synchronized boolean reservesSessionContext() {
        return !explicit() && provisioned != 0;
    }

    /** The pool rocSHMEM works with: the environment's value, else the provisioned one, else its default. */
    static synchronized long limit() {
        if (explicit()) {
            return HostContextLimit.parse(EXPLICIT);
        }
        return provisioned != 0 ? provisioned : HostContextLimit.DEFAULT;
    }

    /** The effective value and why, for {@link Info} and the refusal messages. */
    static synchronized String describe() {
        if (explicit()) {
            return HostContextLimit.VARIABLE + "=" + EXPLICIT.trim() + " (from the environment, which wins; rocSHMEM's"
                    + " default context and the session's context of the host collectives count in it)";
        }
        if (provisioned == 0) {
            return HostContextLimit.VARIABLE + " not provisioned yet (rocSHMEM's library is not loaded)";
        }
        return HostContextLimit.VARIABLE + "=" + provisioned + " (set by the Java API before rocSHMEM loaded:"
                + " rocSHMEM's default context, the session's context of the host collectives and " + programContexts
                + " of the program's own; ask for more with InitOptions.hostContexts(n))";
    }
}
