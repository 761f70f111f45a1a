package org.rocshmem.bench;

/** The three ways of calling one rocSHMEM operation that every row of the report compares. */
public enum Variant {
    /** The same C loop inside the JVM ({@link NativeLoops}): one JNI crossing per k calls. */
    C("c", "C-in-JVM"),
    /** The generated JavaCPP binding {@code org.rocshmem.global.rocshmem}, Pointers positioned outside the loop. */
    RAW("raw", "raw binding"),
    /** The typed API of {@code org.rocshmem.api} (views, sessions, teams). */
    TYPED("typed", "typed API");

    /** The value of the benchmarks' {@code variant} parameter. */
    public final String param;
    public final String title;

    Variant(String param, String title) {
        this.param = param;
        this.title = title;
    }

    public static Variant of(String param) {
        for (Variant v : values()) {
            if (v.param.equals(param)) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown variant '" + param + "' (c, raw, typed)");
    }
}
