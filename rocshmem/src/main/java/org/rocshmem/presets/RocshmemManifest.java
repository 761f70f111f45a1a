package org.rocshmem.presets;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The rocSHMEM host API manifest (rocshmem/manifest/*.tsv, copied onto the parser's class path),
 * read by the {@link rocshmem} presets to decide what to bind: exactly the host functions the real
 * library defines. Keeping this knowledge in the data, not in hand-typed lists, lets the same
 * InfoMap work on the header twin and on a real rocSHMEM header.
 */
final class RocshmemManifest {
    static final String RESOURCE_DIR = "/org/rocshmem/presets/manifest/";
    static final String UNDEFINED_FLAG = "no-host-definition-seen-in-src/rocshmem.cpp";

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
        for (String[] row : rows("host-functions.tsv")) {
            Declaration d = new Declaration(row[0], paramTypes(row[2]));
            (row[5].contains(UNDEFINED_FLAG) ? m.undefinedHost : m.definedHost).add(d);
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

    private static List<String[]> rows(String file) {
        InputStream in = RocshmemManifest.class.getResourceAsStream(RESOURCE_DIR + file);
        if (in == null) {
            throw new IllegalStateException("rocSHMEM manifest " + RESOURCE_DIR + file + " is not on the class path");
        }
        List<String[]> rows = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            r.readLine(); // column names
            for (String line; (line = r.readLine()) != null; ) {
                if (!line.isBlank()) {
                    rows.add(line.split("\t", -1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
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
        return types;
    }
}
