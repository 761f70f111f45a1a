package org.rocshmem.hip;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.rocshmem.testsupport.NativeBuild;

/**
 * Every HIP symbol the JNI library imports must be exported by the library it was linked
 * against (the real libamdhip64, or the CPU emulator); otherwise the JVM would fail to load it,
 * or die on the first call of a declared-but-missing function.
 */
class JniSymbolsTest {
    /** "U name@version" or "U name"; versions of the C/C++ runtimes are not HIP's business. */
    private static final Pattern UNDEFINED = Pattern.compile("^\\s+U (\\S+?)(?:@+(\\S+))?$");

    @Test
    void everyHipSymbolOfTheJniLibraryIsExported() throws Exception {
        Path jni = NativeBuild.jniLibrary("hip");
        assertTrue(Files.isRegularFile(jni), "JNI library not built: " + jni);
        assertAllImportsExported(jni, 400, hipLibrary());
    }

    /** The rocSHMEM JNI library is built on the emulator (and on ROCm hosts, which link statically). */
    @Test
    void everyRocshmemSymbolOfTheJniLibraryIsExportedByTheEmulator() throws Exception {
        Path jni = NativeBuild.jniLibrary("rocshmem");
        Assumptions.assumeTrue(NativeBuild.isEmulator(), "rocSHMEM is linked statically in the real variant");
        assertTrue(Files.isRegularFile(jni), "JNI library not built: " + jni);
        assertAllImportsExported(jni, 850, NativeBuild.cppbuildLib("librocshmem_cpu_emu.so").toRealPath(), hipLibrary());
    }

    private static Path hipLibrary() throws Exception {
        return NativeBuild.cppbuildLib(NativeBuild.isEmulator() ? "libhip_cpu_emu.so" : "libamdhip64.so").toRealPath();
    }

    private static void assertAllImportsExported(Path jni, int atLeast, Path... libraries) throws Exception {

        Set<String> imported = new TreeSet<>();
        for (String line : NativeBuild.run("nm", "-D", "--undefined-only", jni.toString())) {
            Matcher m = UNDEFINED.matcher(line);
            if (m.matches() && !isSystemRuntime(m.group(2))) {
                imported.add(m.group(1));
            }
        }
        Set<String> exported = new TreeSet<>();
        for (Path library : libraries) {
            for (String line : NativeBuild.run("nm", "-D", "--defined-only", library.toString())) {
                String[] f = line.trim().split("\\s+");
                if (f.length == 3) {
                    exported.add(f[2].replaceAll("@.*", ""));
                }
            }
        }
        assertTrue(imported.size() > atLeast, "suspiciously few imports: " + imported.size());
        imported.removeAll(exported);
        if (!imported.isEmpty()) {
            fail(imported.size() + " symbol(s) imported by " + jni.getFileName() + " but not exported by "
                    + java.util.Arrays.toString(libraries) + ": " + imported);
        }
    }

    private static boolean isSystemRuntime(String version) {
        return version != null && version.matches("(GLIBC|GLIBCXX|CXXABI|GCC)_.*");
    }
}
