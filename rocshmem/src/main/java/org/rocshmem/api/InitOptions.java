package org.rocshmem.api;

/**
 * What a program asks of {@link Rocshmem#init(InitOptions)} beyond the defaults: {@code
 * Rocshmem.init(InitOptions.hostContexts(8))}. Immutable; each method returns a new value.
 */
public final class InitOptions {
    private static final InitOptions DEFAULTS = new InitOptions(HostContextProvisioning.DEFAULT_PROGRAM_CONTEXTS);

    private final int hostContexts;

    private InitOptions(int hostContexts) {
        this.hostContexts = hostContexts;
    }

    /** The defaults: room for {@value HostContextProvisioning#DEFAULT_PROGRAM_CONTEXTS} host contexts of the program's own. */
    public static InitOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Room for {@code count} live host contexts of the program's own ({@link Rocshmem#createContext}), beside
     * rocSHMEM's default context and the session's context of the host collectives, which the API provisions itself.
     * rocSHMEM reads its pool size once, when its library loads: give this to the first init, before any other
     * rocSHMEM call. A {@code ROCSHMEM_MAX_NUM_HOST_CONTEXTS} in the environment wins over it.
     *
     * @param count 0 or more
     */
    public static InitOptions hostContexts(int count) {
        return DEFAULTS.withHostContexts(count);
    }

    /** These options with room for {@code count} host contexts of the program's own (see {@link #hostContexts(int)}). */
    public InitOptions withHostContexts(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("hostContexts count must be 0 or more, got " + count);
        }
        return new InitOptions(count);
    }

    /** The host contexts of the program's own that init provisions. */
    public int hostContexts() {
        return hostContexts;
    }

    @Override
    public String toString() {
        return "InitOptions[hostContexts=" + hostContexts + "]";
    }
}
