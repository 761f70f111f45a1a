package org.rocshmem.rccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.rocshmem.testsupport.NativeBuild;

/**
 * The bindings against the header they were generated from: every public function of rccl.h is bound, with its
 * arity, and nothing else; the JNI library imports exactly those 42 and the library it is linked against (the
 * real librccl, or the CPU RCCL) exports them. No native code is loaded.
 */
class RcclBindingSurfaceTest {
    private static final Pattern UNDEFINED = Pattern.compile("^\\s+U (\\S+?)(?:@+\\S+)?$");

    @Test
    void everyPublicFunctionOfTheHeaderIsBoundAndNothingElse() throws Exception {
        Map<String, Integer> declared = RcclHeader.publicFunctions();
        assertEquals(42, declared.size(), "rccl.h 7.2.4 declares 42 public functions: " + declared.keySet());
        assertEquals(new TreeSet<>(Set.of(org.rocshmem.presets.rccl.PUBLIC_FUNCTIONS)), declared.keySet(),
                "the presets' list of public functions");
        assertTrue(RcclHeader.declarations().keySet().containsAll(Set.of("pncclAllReduce", "mscclLoadAlgo")),
                "the header also declares the skipped profiling twins and MSCCL functions");

        Class<?> global = Class.forName("org.rocshmem.global.rccl", false, getClass().getClassLoader());
        Map<String, Set<Integer>> bound = new TreeMap<>();
        for (Method method : global.getDeclaredMethods()) {
            String name = method.getName();
            if (Modifier.isNative(method.getModifiers()) && (name.startsWith("nccl") || name.startsWith("pnccl")
                    || name.startsWith("msccl") || name.startsWith("pmsccl"))) {
                bound.computeIfAbsent(name, k -> new TreeSet<>()).add(method.getParameterCount());
            }
        }
        assertEquals(declared.keySet(), bound.keySet(), "bound functions");
        for (Map.Entry<String, Integer> d : declared.entrySet()) {
            assertEquals(Set.of(d.getValue()), bound.get(d.getKey()), "arity of every overload of " + d.getKey());
        }
    }

    @Test
    void theJniLibraryImportsExactlyThePublicFunctionsAndTheLinkedLibraryExportsThem() throws Exception {
        Path jni = NativeBuild.jniLibrary("rccl");
        assertTrue(Files.isRegularFile(jni), "JNI library not built: " + jni);
        Set<String> imported = new TreeSet<>();
        for (String line : NativeBuild.run("nm", "-D", "--undefined-only", jni.toString())) {
            Matcher m = UNDEFINED.matcher(line);
            if (m.matches() && m.group(1).contains("nccl")) {
                imported.add(m.group(1));
            }
        }
        assertEquals(RcclHeader.publicFunctions().keySet(), imported);

        Path library = NativeBuild.cppbuildLib(NativeBuild.isEmulator() ? "librccl_cpu_emu.so" : "librccl.so").toRealPath();
        Set<String> exported = new TreeSet<>();
        for (String line : NativeBuild.run("nm", "-D", "--defined-only", library.toString())) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 3) {
                exported.add(f[2].replaceAll("@.*", ""));
            }
        }
        Set<String> missing = new TreeSet<>(imported);
        missing.removeAll(exported);
        if (!missing.isEmpty()) {
            fail(library + " does not export " + missing);
        }
    }
}
