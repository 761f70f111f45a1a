package org.rocshmem.hip;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
        Path hipLibrary = NativeBuild.cppbuildLib(NativeBuild.isEmulator() ? "libhip_cpu_emu.so" : "libamdhip64.so").toRealPath();
        assertTrue(Files.isRegularFile(jni), "JNI library not built: " + jni);

        Set<String> imported = new TreeSet<>();
        for (String line : NativeBuild.run("nm", "-D", "--undefined-only", jni.toString())) {
            Matcher m = UNDEFINED.matcher(line);
            if (m.matches() && !isSystemRuntime(m.group(2))) {
                imported.add(m.group(1));
            }
        }
        Set<String> exported = new TreeSet<>();
        for (String line : NativeBuild.run("nm", "-D", "--defined-only", hipLibrary.toString())) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 3) {
                exported.add(f[2].replaceAll("@.*", ""));
            }
        }
        assertTrue(imported.size() > 400, "suspiciously few HIP imports: " + imported.size());
        imported.removeAll(exported);
        if (!imported.isEmpty()) {
            fail(imported.size() + " symbol(s) imported by " + jni.getFileName() + " but not exported by "
                    + hipLibrary.getFileName() + ": " + imported);
        }
    }

    private static boolean isSystemRuntime(String version) {
        return version != null && version.matches("(GLIBC|GLIBCXX|CXXABI|GCC)_.*");
    }
}
