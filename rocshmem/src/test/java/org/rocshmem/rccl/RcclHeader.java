package org.rocshmem.rccl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rocshmem.testsupport.NativeBuild;

/** The public functions rccl/rccl.h declares (as the build put it under cppbuild/), with their arity. */
final class RcclHeader {
    private static final Pattern DECLARATION = Pattern.compile(
            "^\\s*(?:ncclResult_t|const\\s+char\\s*\\*|void)\\s*(p?(?:nccl|msccl)[A-Za-z0-9_]*)\\s*\\(([^;]*?)\\)\\s*;",
            Pattern.MULTILINE | Pattern.DOTALL);

    private RcclHeader() {
    }

    static Path path() {
        return NativeBuild.moduleDir().resolve("cppbuild/" + NativeBuild.platform() + "/include/rccl/rccl.h");
    }

    /** Every declared function name (nccl*, pnccl*, msccl*...) with its parameter count. */
    static Map<String, Integer> declarations() throws IOException {
        Map<String, Integer> found = new TreeMap<>();
        Matcher m = DECLARATION.matcher(Files.readString(path()));
        while (m.find()) {
            String params = m.group(2).trim();
            int arity = params.isEmpty() || params.equals("void") ? 0 : params.split(",").length;
            found.put(m.group(1), arity);
        }
        return found;
    }

    /** Only the public ones: nccl*, without the profiling twins and the MSCCL scheduler functions. */
    static Map<String, Integer> publicFunctions() throws IOException {
        Map<String, Integer> all = declarations();
        all.keySet().removeIf(name -> !name.startsWith("nccl"));
        return all;
    }
}
