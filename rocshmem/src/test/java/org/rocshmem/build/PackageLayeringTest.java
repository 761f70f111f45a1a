package org.rocshmem.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.rocshmem.testsupport.NativeBuild;

/**
 * The Java API is layered like the emulator: {@code org.rocshmem.api.hip} (streams, events, modules, kernels,
 * device memory) is the floor; rocSHMEM ({@code org.rocshmem.api}) and RCCL ({@code org.rocshmem.api.rccl}) stand
 * on it and not on each other. Read from the sources (hand-written and generated, every release directory), so an
 * import, a static import or a fully qualified name that crosses a wall fails here, naming the file and the class.
 */
class PackageLayeringTest {
    private static final String API = "org.rocshmem.api";
    /** A reference to a package of the API: {@code org.rocshmem.api.Foo}, {@code org.rocshmem.api.rccl.Bar}... */
    private static final Pattern REFERENCE = Pattern.compile("\\borg\\.rocshmem\\.api((?:\\.[a-z]\\w*)*)\\.[A-Z*]");

    /** The packages each layer may name besides its own (the bootstrap helpers belong to no library). */
    private static final java.util.Map<String, Set<String>> ALLOWED = java.util.Map.of(
            API + ".hip", Set.of(),
            API + ".bootstrap", Set.of(),
            API + ".rccl", Set.of(API + ".hip", API + ".bootstrap"),
            API + ".dlpack", Set.of(API, API + ".hip"),
            API, Set.of(API + ".hip", API + ".bootstrap", API + ".kernel", API + ".launch"));

    @Test
    void theFloorAndTheTwoLibrariesKeepTheirWalls() throws IOException {
        Path module = NativeBuild.moduleDir();
        List<String> violations = new ArrayList<>();
        int files = 0;
        for (String root : List.of("src/main/java", "src/gen/java", "src/main/java22")) {
            Path dir = module.resolve(root);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : (Iterable<Path>) paths.filter(f -> f.toString().endsWith(".java"))::iterator) {
                    files++;
                    violations.addAll(violations(module.relativize(p).toString(), Files.readString(p)));
                }
            }
        }
        assertTrue(files > 100, "scanned only " + files + " source files under " + module);
        assertEquals(List.of(), violations, "a layer names a package it must not (docs/layout.md draws the map)");
    }

    /** The checker itself: each wall is seen, and comments and strings are not code. */
    @Test
    void theCheckerSeesEachWall() {
        assertEquals(List.of("hip/X.java: org.rocshmem.api.hip names org.rocshmem.api (org.rocshmem.api.Rocshmem)"),
                violations("hip/X.java", "package org.rocshmem.api.hip;\nimport org.rocshmem.api.Rocshmem;\n"));
        assertEquals(List.of("hip/Y.java: org.rocshmem.api.hip names org.rocshmem.api.rccl"
                        + " (org.rocshmem.api.rccl.Communicator)"),
                violations("hip/Y.java", "package org.rocshmem.api.hip;\nclass Y { Object c = "
                        + "org.rocshmem.api.rccl.Communicator.class; }\n"));
        assertEquals(List.of("rccl/Z.java: org.rocshmem.api.rccl names org.rocshmem.api (org.rocshmem.api.*)"),
                violations("rccl/Z.java", "package org.rocshmem.api.rccl;\nimport org.rocshmem.api.*;\n"
                        + "import org.rocshmem.api.hip.HipStream;\n"));
        assertEquals(List.of("W.java: org.rocshmem.api names org.rocshmem.api.rccl (org.rocshmem.api.rccl.DataType)"),
                violations("W.java", "package org.rocshmem.api;\nimport static org.rocshmem.api.rccl.DataType.INT8;\n"));
        assertEquals(List.of(), violations("hip/V.java", "package org.rocshmem.api.hip;\n/** {@link "
                + "org.rocshmem.api.Rocshmem} */\nclass V { String s = \"org.rocshmem.api.Rocshmem\"; }\n"));
    }

    /** "file: layer names package (reference)" for each reference that crosses a wall. */
    static List<String> violations(String file, String source) {
        String code = codeOnly(source);
        Matcher pkg = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE).matcher(code);
        if (!pkg.find() || !ALLOWED.containsKey(pkg.group(1))) {
            return List.of();
        }
        String layer = pkg.group(1);
        Set<String> found = new TreeSet<>();
        Matcher m = REFERENCE.matcher(code);
        while (m.find()) {
            String target = API + m.group(1);
            if (!target.equals(layer) && !ALLOWED.get(layer).contains(target)) {
                int end = m.end();
                while (end < code.length() && (Character.isJavaIdentifierPart(code.charAt(end))
                        || code.charAt(end) == '*')) {
                    end++;
                }
                found.add(file + ": " + layer + " names " + target + " (" + code.substring(m.start(), end) + ")");
            }
        }
        return new ArrayList<>(found);
    }

    /** The source without comments, string and character literals and text blocks (each becomes a space). */
    static String codeOnly(String source) {
        StringBuilder code = new StringBuilder(source.length());
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (source.startsWith("//", i)) {
                i = source.indexOf('\n', i);
                i = i < 0 ? n : i;
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                code.append(' ');
            } else if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                while (end > 0 && source.charAt(end - 1) == '\\') {
                    end = source.indexOf("\"\"\"", end + 1);
                }
                i = end < 0 ? n : end + 3;
                code.append(' ');
            } else if (c == '"' || c == '\'') {
                i++;
                while (i < n && source.charAt(i) != c) {
                    i += source.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
                code.append(' ');
            } else {
                code.append(c);
                i++;
            }
        }
        return code.toString();
    }
}
