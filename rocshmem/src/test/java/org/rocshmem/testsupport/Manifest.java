package org.rocshmem.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Rows of rocshmem/manifest/host-functions.tsv, the spec the bindings are checked against. */
public final class Manifest {
    public static final String UNDEFINED_FLAG = "no-host-definition-seen-in-src/rocshmem.cpp";

    /** One host declaration: name, return type, parameter types (names and defaults removed), flags. */
    public record HostFunction(String name, String returnType, List<String> paramTypes, int requiredParams, String flags) {
        public boolean defined() {
            return !flags.contains(UNDEFINED_FLAG);
        }

        /** The MPI_Comm overloads are only declared when mpi.h is seen; Java has no MPI_Comm. */
        public boolean mpiOnly() {
            return flags.contains("MPI_Comm-param");
        }
    }

    private Manifest() {
    }

    public static List<HostFunction> hostFunctions() throws IOException {
        List<String> lines = Files.readAllLines(NativeBuild.moduleDir().resolve("manifest/host-functions.tsv"));
        List<HostFunction> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t", -1);
            List<String> types = paramTypes(f[2]);
            int defaults = f[2].split("=", -1).length - 1;
            rows.add(new HostFunction(f[0], f[1].trim(), types, types.size() - defaults, f[5]));
        }
        return rows;
    }

    static List<String> paramTypes(String params) {
        String p = params.trim();
        if (p.isEmpty() || p.equals("void")) {
            return List.of();
        }
        List<String> types = new ArrayList<>();
        for (String param : p.split(";")) {
            String t = param.replaceAll("=.*$", "").trim();
            t = t.replaceAll("^(.*?[\\w*&>\\s])\\s*\\b[A-Za-z_]\\w*$", "$1").trim();
            types.add(t.replaceAll("\\s*\\*", "*").replaceAll("\\s+", " "));
        }
        return Arrays.asList(types.toArray(new String[0]));
    }
}
