package org.rocshmem.api.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocshmem.api.launch.LaunchResult;
import org.rocshmem.api.launch.PeJob;
import org.rocshmem.api.launch.PeResult;

/**
 * Every code example ({@code <pre>{@code ...}</pre>}) in the javadoc of the kernel classes compiles and runs on 2 PEs
 * as printed, like the package tour (dev/readme-snippets.sh): each block becomes the body of a {@code main} in a
 * class that imports the block's own package and {@code org.rocshmem.api}, run with the test class path, where the
 * sample kernels ({@code kernels/ring.emuco}) are resources. The classes are found by name anywhere under
 * {@code org/rocshmem/api}, so moving them to another package keeps them checked.
 */
@Tag("emu")
@Timeout(600)
class KernelJavadocExamplesTest {
    /** The kernel classes whose examples users copy. */
    static final Set<String> CLASSES = Set.of("HipModule.java", "Kernel.java", "KernelArguments.java",
            "KernelAttributes.java", "CodeObjectHeader.java", "Dim3.java", "HipStream.java", "DeviceAddress.java",
            "KernelCompiler.java");
    private static final Pattern BLOCK = Pattern.compile("<pre>\\{@code\\n(.*?)\\n \\* }</pre>", Pattern.DOTALL);
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);

    @Test
    void everyExampleCompilesAndRunsOnTwoPes(@TempDir Path work) throws Exception {
        Path api = Path.of(System.getProperty("rocshmem.basedir"), "src/main/java/org/rocshmem/api");
        List<Path> sources;
        try (Stream<Path> files = Files.walk(api)) {
            sources = files.filter(f -> CLASSES.contains(f.getFileName().toString())).sorted().toList();
        }
        assertEquals(CLASSES.size(), sources.size(), "every kernel class found: " + sources);
        List<Path> programs = new ArrayList<>();
        for (Path source : sources) {
            String text = Files.readString(source);
            Matcher pkg = PACKAGE.matcher(text);
            assertTrue(pkg.find(), source.toString());
            Matcher m = BLOCK.matcher(text);
            int n = 0;
            while (m.find()) {
                String className = source.getFileName().toString().replace(".java", "") + "Example" + ++n;
                StringBuilder body = new StringBuilder();
                for (String line : m.group(1).split("\n")) {
                    body.append("        ").append(line.replaceFirst("^ \\* ?", "").replace("&#64;", "@")).append('\n');
                }
                Path program = work.resolve(className + ".java");
                Files.writeString(program, "import org.rocshmem.api.*;\nimport " + pkg.group(1) + ".*;\n\n"
                        + "public class " + className + " {\n    public static void main(String[] argv) throws Exception {\n"
                        + body + "    }\n}\n");
                programs.add(program);
            }
        }
        // HipModule, Kernel, KernelArguments and HipStream print one example each
        assertTrue(programs.size() >= 4, "examples found: " + programs);
        Path classes = Files.createDirectories(work.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> options = new ArrayList<>(List.of("-d", classes.toString(), "-classpath",
                System.getProperty("java.class.path"), "--release", "17"));
        programs.forEach(p -> options.add(p.toString()));
        assertEquals(0, javac.run(null, null, null, options.toArray(String[]::new)), "javac of " + programs);

        for (Path program : programs) {
            String name = program.getFileName().toString().replace(".java", "");
            LaunchResult result = PeJob.builder(name).nproc(2)
                    .classpath(classes + File.pathSeparator + System.getProperty("java.class.path"))
                    .jvmArgs(PeJob.inheritedSystemProperties()).timeout(Duration.ofSeconds(120))
                    .env("ROCSHMEM_HEAP_SIZE", "16M").quiet().build().run();
            StringBuilder all = new StringBuilder(name + ": " + result);
            for (PeResult pe : result.pes()) {
                pe.stderr().forEach(line -> all.append("\nPE ").append(pe.rank()).append(" err: ").append(line));
            }
            assertTrue(result.succeeded(), all.toString());
        }
    }
}
