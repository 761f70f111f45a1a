package org.rocshmem.presets;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.bytedeco.javacpp.Loader;

/**
 * Finds the real {@code librccl.so.1} before the RCCL JNI library loads, in nccl4py's order:
 * <ol>
 * <li>{@code NCCL_LIBRARY}: an explicit path or soname. When set it is the only candidate: a broken override
 *     is an error, never a silent fall-back to another RCCL;</li>
 * <li>the system soname {@code librccl.so.1} (the dynamic loader's search: {@code LD_LIBRARY_PATH}, the
 *     ld.so cache, the default directories);</li>
 * <li>{@code $ROCM_PATH/lib/librccl.so.1}, {@code ROCM_PATH} defaulting to {@code /opt/rocm}.</li>
 * </ol>
 * The chosen file is opened with {@code RTLD_GLOBAL}; the JNI library's {@code DT_NEEDED librccl.so.1} then
 * binds to it by soname, so the file must carry that soname (every RCCL 7 build does).
 *
 * <p>The {@code -emu} variant bundles its own CPU RCCL and ignores all of this (a set {@code NCCL_LIBRARY}
 * is reported once as ignored).
 */
public final class RcclLibraryLocator {
    public static final String OVERRIDE_VARIABLE = "NCCL_LIBRARY";
    public static final String ROCM_PATH_VARIABLE = "ROCM_PATH";
    public static final String DEFAULT_ROCM_PATH = "/opt/rocm";
    public static final String SONAME = "librccl.so.1";

    private static final System.Logger LOG = System.getLogger(RcclLibraryLocator.class.getName());

    /** Where a candidate came from, in search order. */
    public enum Source { NCCL_LIBRARY, SYSTEM_SONAME, ROCM_PATH, EMULATOR }

    /** A library to try: a path (contains '/') or a soname for the dynamic loader's search. */
    public record Candidate(Source source, String name) {
    }

    private static Candidate loaded;
    private static String failure;

    private RcclLibraryLocator() {
    }

    /** The candidates for {@code env}, in the order they are tried. */
    public static List<Candidate> candidates(Map<String, String> env) {
        String override = env.get(OVERRIDE_VARIABLE);
        if (override != null && !override.isBlank()) {
            return List.of(new Candidate(Source.NCCL_LIBRARY, override.trim()));
        }
        String rocm = env.get(ROCM_PATH_VARIABLE);
        if (rocm == null || rocm.isBlank()) {
            rocm = DEFAULT_ROCM_PATH;
        }
        return List.of(new Candidate(Source.SYSTEM_SONAME, SONAME),
                new Candidate(Source.ROCM_PATH, Path.of(rocm.trim(), "lib", SONAME).toString()));
    }

    /**
     * Tries the candidates in order with {@code open} (which returns null on success, else the failure) and
     * returns the first that opened; throws an {@link UnsatisfiedLinkError} listing every attempt otherwise.
     */
    public static Candidate locate(Map<String, String> env, Function<String, Throwable> open) {
        List<String> attempts = new ArrayList<>();
        for (Candidate candidate : candidates(env)) {
            Throwable error = open.apply(candidate.name());
            if (error == null) {
                return candidate;
            }
            attempts.add(describe(candidate) + ": " + firstLine(error));
        }
        throw new UnsatisfiedLinkError("RCCL library not found; tried " + String.join("; ", attempts)
                + ". Install RCCL (librccl.so.1), set " + OVERRIDE_VARIABLE + " to its path, or run the -emu variant"
                + " (-D" + NativeVariant.EXTENSION_PROPERTY + "=" + NativeVariant.EMULATOR_EXTENSION + ")");
    }

    /** The library opened for this process, if the real variant loaded one (empty on the emulator). */
    public static synchronized Optional<Candidate> loaded() {
        return Optional.ofNullable(loaded);
    }

    /** Why loading failed, if it did (kept because the class that failed to initialize cannot say it twice). */
    public static synchronized Optional<String> failure() {
        return Optional.ofNullable(failure);
    }

    /** Called by the {@link rccl} presets class (LoadEnabled) before its JNI library loads. */
    static synchronized void preloadForCurrentVariant() {
        if (loaded != null) {
            return;
        }
        Map<String, String> env = System.getenv();
        if (NativeVariant.loaded() == NativeVariant.EMULATOR) {
            if (env.get(OVERRIDE_VARIABLE) != null) {
                LOG.log(System.Logger.Level.WARNING, "{0} is ignored: the {1} variant uses its bundled CPU RCCL",
                        OVERRIDE_VARIABLE, NativeVariant.EMULATOR_EXTENSION);
            }
            loaded = new Candidate(Source.EMULATOR, "librccl_cpu_emu.so");
            return;
        }
        Loader.load(org.bytedeco.javacpp.presets.javacpp.class);  // Loader.loadGlobal is one of its natives
        try {
            loaded = locate(env, RcclLibraryLocator::openGlobal);
        } catch (UnsatisfiedLinkError e) {
            failure = e.getMessage();
            throw e;
        }
        LOG.log(System.Logger.Level.DEBUG, "RCCL loaded from {0}", describe(loaded));
    }

    public static String describe(Candidate candidate) {
        return switch (candidate.source()) {
            case NCCL_LIBRARY -> OVERRIDE_VARIABLE + "=" + candidate.name();
            case SYSTEM_SONAME -> "system soname " + candidate.name();
            case ROCM_PATH -> "$" + ROCM_PATH_VARIABLE + "/lib: " + candidate.name();
            case EMULATOR -> "bundled CPU RCCL " + candidate.name();
        };
    }

    private static Throwable openGlobal(String name) {
        try {
            Loader.loadGlobal(name);
            return null;
        } catch (Throwable e) {
            return e;
        }
    }

    private static String firstLine(Throwable error) {
        String message = error.getMessage() == null ? error.toString() : error.getMessage();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
