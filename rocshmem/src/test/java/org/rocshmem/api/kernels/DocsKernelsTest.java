package org.rocshmem.api.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocshmem.api.launch.LaunchResult;
import org.rocshmem.api.launch.PeJob;
import org.rocshmem.api.launch.PeResult;

/**
 * The README's Kernels section and docs/kernels.md work as written: their kernel sources are compiled by KernelCompiler
 * with the driver it extracts from the class path (as a user's build does), the README's Java program is compiled and
 * run on 2 PEs from the code objects it loads as resources, the guide's pom snippet is well-formed and runs
 * KernelCompiler at generate-resources.
 */
@Tag("emu")
@Timeout(300)
class DocsKernelsTest {
    private static final Pattern BLOCK = Pattern.compile("```(\\w+)\\n(.*?)```", Pattern.DOTALL);

    @Test
    void theGuideCompilesAndRunsOnTwoPes(@TempDir Path project) throws Exception {
        Path top = Path.of(System.getProperty("rocshmem.basedir"), "..");
        String readme = Files.readString(top.resolve("README.md"));
        int start = readme.indexOf("\n## Kernels\n");
        assertTrue(start >= 0, "README.md has no '## Kernels' section");
        int end = readme.indexOf("\n## ", start + 1);
        String documents = readme.substring(start, end < 0 ? readme.length() : end)
                + Files.readString(top.resolve("docs/kernels.md"));
        List<String[]> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(documents);
        while (m.find()) {
            blocks.add(new String[] {m.group(1), m.group(2)});
        }
        Path hip = project.resolve("src/main/hip");
        List<Path> javaFiles = new ArrayList<>();
        int snippets = 0;
        int poms = 0;
        for (String[] block : blocks) {
            String language = block[0];
            String text = block[1];
            String first = text.lines().findFirst().orElse("");
            Path file = first.startsWith("// file: ") ? project.resolve(first.substring(9).trim())
                    : language.equals("cpp") ? hip.resolve("kernels/snippet" + ++snippets + ".hip") : null;
            if (file != null) {
                Files.createDirectories(file.getParent());
                Files.writeString(file, language.equals("cpp") && !first.startsWith("// file: ")
                        ? "#include <hip/hip_runtime.h>\n" + text : text);
                if (language.equals("java")) {
                    javaFiles.add(file);
                }
            } else if (language.equals("xml")) {
                org.w3c.dom.Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                        .parse(new java.io.ByteArrayInputStream(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                assertEquals("generate-resources", pom.getElementsByTagName("phase").item(0).getTextContent());
                assertTrue(text.contains("<argument>org.rocshmem.api.kernel.KernelCompiler</argument>"));
                poms++;
            }
        }
        assertEquals(1, poms, "the guide's pom snippet");
        assertEquals(1, javaFiles.size(), "the README's Java program");

        // the build step: what the pom snippet runs (the driver and headers come from the class path)
        Path resources = project.resolve("target/classes");
        runKernelCompiler(hip, resources);
        assertTrue(Files.isRegularFile(resources.resolve("kernels/double_next.emuco")));
        assertTrue(Files.isRegularFile(resources.resolve("kernels/snippet1.emuco")), "the peer-table snippet");

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> options = new ArrayList<>(List.of("-d", resources.toString(), "-classpath",
                System.getProperty("java.class.path"), "--release", "17"));
        javaFiles.forEach(f -> options.add(f.toString()));
        assertEquals(0, javac.run(null, null, null, options.toArray(String[]::new)), "javac of the guide's program");

        LaunchResult result = PeJob.builder("com.example.DoubleNext").nproc(2)
                .classpath(resources + File.pathSeparator + System.getProperty("java.class.path"))
                .jvmArgs(PeJob.inheritedSystemProperties()).timeout(Duration.ofSeconds(120))
                .env("ROCSHMEM_HEAP_SIZE", "16M").quiet().build().run();
        StringBuilder all = new StringBuilder(result.toString());
        for (PeResult pe : result.pes()) {
            pe.stderr().forEach(line -> all.append("\nPE ").append(pe.rank()).append(" err: ").append(line));
        }
        assertTrue(result.succeeded(), all.toString());
        assertEquals(List.of("PE 0: 256 doubled elements from PE 1 verified"), result.pes().get(0).stdout());
        assertEquals(List.of("PE 1: 256 doubled elements from PE 0 verified"), result.pes().get(1).stdout());
    }

    /** KernelCompiler in its own JVM, as exec-maven-plugin runs it. */
    private static void runKernelCompiler(Path sources, Path output) throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-classpath", System.getProperty("java.class.path"), "org.rocshmem.api.kernel.KernelCompiler",
                "--gpu", "off", sources.toString(), output.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), out);
    }
}
