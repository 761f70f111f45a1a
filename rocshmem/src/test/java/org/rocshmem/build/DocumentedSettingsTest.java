package org.rocshmem.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.rocshmem.testsupport.NativeBuild;

/**
 * The settings table of docs/settings.md names exactly the environment variables and system properties the code reads: the
 * Java API, the launcher and bootstrap, and the CPU emulator (HIP, rocSHMEM, RCCL). A setting added to the code
 * without a row, or a row left after its setting went, fails here.
 */
class DocumentedSettingsTest {
    /** Whole string literals that name an environment variable of this project's world. */
    private static final Pattern ENV = Pattern.compile("\"((?:ROCSHMEM|NCCL|OMPI_COMM_WORLD|OMPI_MCA|SLURM|PMIX|"
            + "TORCHELASTIC|ROCM)_[A-Za-z0-9_]+|RANK|WORLD_SIZE|LOCAL_RANK|LOCAL_WORLD_SIZE|MASTER_ADDR|"
            + "MASTER_PORT)\"");
    /** Whole string literals that name a system property this project reads. */
    private static final Pattern PROPERTY = Pattern.compile("\"((?:rocshmem|org\\.bytedeco\\.javacpp)\\.[A-Za-z.]+)\"");
    /** In the presets, which also name C macros: getenv("NAME"), or a String constant holding a variable's name. */
    private static final Pattern GETENV = Pattern.compile("(?:getenv\\(|static final String \\w+ = )\"([A-Z][A-Z0-9_]+)\"");
    /** Table rows: | `NAME` | ... */
    private static final Pattern ROW = Pattern.compile("^\\| `([A-Za-z0-9_.]+)` \\|", Pattern.MULTILINE);

    @Test
    void settingsTableAndCodeAgree() throws IOException {
        Path module = NativeBuild.moduleDir();
        Set<String> inCode = new TreeSet<>();
        scan(module.resolve("src/main/java"), ".java", inCode);
        scan(module.resolve("emu"), ".cpp", inCode);
        scan(module.resolve("emu"), ".hpp", inCode);
        System.out.println("settings read by the code: " + inCode.size() + " " + inCode);
        String readme = Files.readString(module.resolve("../docs/settings.md"));
        int start = readme.indexOf("## Settings read by this project");
        assertTrue(start >= 0, "docs/settings.md has no '## Settings read by this project' section");
        int end = readme.indexOf("\n## ", start + 3);
        String section = readme.substring(start, end < 0 ? readme.length() : end);
        Set<String> documented = new TreeSet<>();
        Matcher row = ROW.matcher(section);
        while (row.find()) {
            documented.add(row.group(1));
        }
        assertTrue(documented.size() > 20, "docs/settings.md has almost no table rows: " + documented);
        Set<String> undocumented = new TreeSet<>(inCode);
        undocumented.removeAll(documented);
        Set<String> stale = new TreeSet<>(documented);
        stale.removeAll(inCode);
        assertEquals(Set.of(), undocumented, "read by the code but missing from the table of docs/settings.md");
        assertEquals(Set.of(), stale, "in the table of docs/settings.md but read nowhere");
    }

    private static void scan(Path root, String suffix, Set<String> names) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(p -> p.toString().endsWith(suffix))
                    .filter(p -> !p.toString().contains("/tests/") && !p.toString().contains("/test/")
                            && !p.toString().contains("/bench/")).toList()) {
                String text = Files.readString(file);
                // the presets also name C macros (ROCSHMEM_VERSION, NCCL_CONFIG_INITIALIZER...): only what they
                // pass to getenv or keep as a variable's name counts there (and the properties they name)
                boolean presets = file.toString().contains("/presets/");
                for (Pattern p : presets ? new Pattern[] {GETENV, PROPERTY} : new Pattern[] {ENV, PROPERTY}) {
                    Matcher m = p.matcher(text);
                    while (m.find()) {
                        names.add(m.group(1));
                    }
                }
            }
        }
    }
}
