package org.rocshmem.presets;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The Java reader of the rocSHMEM manifest (rocshmem/manifest/*.tsv, copied onto the class path). The
 * {@link rocshmem} presets read it to decide what to bind: exactly the host functions the real library
 * defines. Keeping this knowledge in the data, not in hand-typed lists, lets the same InfoMap work on the
 * header twin and on a real rocSHMEM header. The tests check the bindings and the typed API against the
 * same rows through {@link #hostFunctions()}. (The build-time TypedApiGenerator keeps its own copy of the
 * row parsing, rocshmem/src/build/Manifest.java; ManifestReadersTest proves that both read the same rows.)
 */
public final class RocshmemManifest {
    static final String RESOURCE_DIR = "/org/rocshmem/presets/manifest/";
    /** Flags of host-functions.tsv, each spelled here once. */
    public static final String UNDEFINED_FLAG = "no-host-definition-seen-in-src/rocshmem.cpp";
    public static final String MPI_ONLY_FLAG = "MPI_Comm-param";
    public static final String LEGACY_ACTIVE_SET_FLAG = "legacy-active-set-signature";

    /** One row of host-functions.tsv: parameter types without names or defaults, and the flags as written. */
    public record HostFunction(String name, String returnType, List<String> paramTypes, int requiredParams,
            String flags) {
        /** The real library defines it (src/rocshmem.cpp has a body for it). */
        public boolean defined() {
            return !hasFlag(UNDEFINED_FLAG);
        }

        /** The MPI_Comm overloads are only declared when mpi.h is seen; Java has no MPI_Comm. */
        public boolean mpiOnly() {
            return hasFlag(MPI_ONLY_FLAG);
        }

        /** A flag equal to {@code flag}, or {@code flag} followed by a parenthesised detail. */
        public boolean hasFlag(String flag) {
            for (String f : splitTopLevel(flags)) {
                if (f.equals(flag) || f.startsWith(flag + "(")) {
                    return true;
                }
            }
            return false;
        }
    }

    /** One declaration: its name and its parameter types, without parameter names or defaults. */
    record Declaration(String name, List<String> paramTypes) {
        /** The C++ signature as an Info key, e.g. {@code rocshmem::rocshmem_fence(int)}. */
        String infoKey(String namespace) {
            return qualified(namespace) + "(" + String.join(", ", paramTypes) + ")";
        }

        /** The parser may spell the library's own types with or without their namespace. */
        String qualifiedInfoKey(String namespace) {
            List<String> types = new ArrayList<>();
            for (String t : paramTypes) {
                types.add(t.replaceAll("\\b(rocshmem_\\w+_t|QpInfo)\\b", "rocshmem::$1"));
            }
            return qualified(namespace) + "(" + String.join(", ", types) + ")";
        }

        String qualified(String namespace) {
            return namespace.isEmpty() ? name : namespace + "::" + name;
        }
    }

    final List<Declaration> definedHost = new ArrayList<>();
    final List<Declaration> undefinedHost = new ArrayList<>();
    final List<Declaration> device = new ArrayList<>();
    /** Device variables (ROCSHMEM_CTX_DEFAULT, ...): never readable from the host. */
    final Set<String> deviceVariables = new LinkedHashSet<>();

    static RocshmemManifest load() {
        RocshmemManifest m = new RocshmemManifest();
        for (HostFunction f : hostFunctions(rows("host-functions.tsv"))) {
            (f.defined() ? m.definedHost : m.undefinedHost).add(new Declaration(f.name(), f.paramTypes()));
        }
        for (String[] row : rows("device-functions.tsv")) {
            if (row[5].endsWith("variable")) {
                m.deviceVariables.add(row[0]);
            } else if (!row[0].contains("::")) {
                m.device.add(new Declaration(row[0], paramTypes(row[2])));
            }
        }
        return m;
    }

    Set<String> definedHostNames() {
        Set<String> names = new LinkedHashSet<>();
        definedHost.forEach(d -> names.add(d.name()));
        return names;
    }

    /** The rows of host-functions.tsv on the class path, in file order. */
    public static List<HostFunction> hostFunctions() {
        return hostFunctions(rows("host-functions.tsv"));
    }

    /** The rows of {@code manifestDir}/host-functions.tsv, in file order. */
    public static List<HostFunction> hostFunctions(Path manifestDir) throws IOException {
        try (InputStream in = Files.newInputStream(manifestDir.resolve("host-functions.tsv"))) {
            return hostFunctions(rows(in));
        }
    }

    private static List<HostFunction> hostFunctions(List<String[]> rows) {
        List<HostFunction> functions = new ArrayList<>();
        for (String[] row : rows) {
            List<String> types = paramTypes(row[2]);
            int defaults = row[2].split("=", -1).length - 1;
            functions.add(new HostFunction(row[0], row[1].trim(), types, types.size() - defaults, row[5]));
        }
        return Collections.unmodifiableList(functions);
    }

    private static List<String[]> rows(String file) {
        InputStream in = RocshmemManifest.class.getResourceAsStream(RESOURCE_DIR + file);
        if (in == null) {
            throw new IllegalStateException("rocSHMEM manifest " + RESOURCE_DIR + file + " is not on the class path");
        }
        try (in) {
            return rows(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String[]> rows(InputStream in) throws IOException {
        List<String[]> rows = new ArrayList<>();
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        r.readLine(); // column names
        for (String line; (line = r.readLine()) != null; ) {
            if (!line.isBlank()) {
                rows.add(line.split("\t", -1));
            }
        }
        return rows;
    }

    /** Splits at commas outside parentheses: a flag's detail may hold commas. */
    static List<String> splitTopLevel(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ',';
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                String part = text.substring(start, i).trim();
                if (!part.isEmpty()) {
                    parts.add(part);
                }
                start = i + 1;
            }
        }
        return parts;
    }

    /** "rocshmem_ctx_t ctx; const void *source; int pe=0" -> [rocshmem_ctx_t, const void*, int]. */
    static List<String> paramTypes(String params) {
        String p = params.trim();
        if (p.isEmpty() || p.equals("-") || p.equals("void")) {
            return Collections.emptyList();
        }
        List<String> types = new ArrayList<>();
        for (String param : p.split(";")) {
            String t = param.replaceAll("=.*$", "").trim();
            // Drop the parameter name: the last identifier, when something precedes it.
            t = t.replaceAll("^(.*?[\\w*&>\\s])\\s*\\b[A-Za-z_]\\w*$", "$1").trim();
            types.add(t.replaceAll("\\s*\\*", "*").replaceAll("\\s*&", "&").replaceAll("\\s+", " "));
        }
        return Collections.unmodifiableList(types);
    }
}
