package org.rocshmem.presets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocshmem.presets.RocshmemManifest.HostFunction;
import org.rocshmem.testsupport.NativeBuild;

/**
 * The TypedApiGenerator (rocshmem/src/build/, a build-time program outside the module) keeps its own copy of the
 * manifest reading ({@code Manifest.java}: it cannot use RocshmemManifest). This test compiles the generator and proves that its copy reads the same rows: the
 * same defined names with the same parameter types, and the same undefined names.
 */
class ManifestReadersTest {

    @Test
    void theGeneratorReadsTheSameRowsAsRocshmemManifest(@TempDir Path classes) throws Exception {
        Class<?> generatorManifest = compileGenerator(classes).loadClass("Manifest");
        Method load = generatorManifest.getDeclaredMethod("load", Path.class);
        load.setAccessible(true);
        Object manifest = load.invoke(null, NativeBuild.moduleDir().resolve("manifest"));

        Map<String, List<String>> expectedDefined = new LinkedHashMap<>();
        Set<String> expectedUndefined = new LinkedHashSet<>();
        for (HostFunction f : RocshmemManifest.hostFunctions()) {
            if (!f.defined()) {
                expectedUndefined.add(f.name());
            } else if (!f.mpiOnly() && !f.hasFlag(RocshmemManifest.LEGACY_ACTIVE_SET_FLAG)) {
                expectedDefined.putIfAbsent(f.name(), f.paramTypes());
            }
        }

        Map<String, List<String>> generatorDefined = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) field(manifest, "defined")).entrySet()) {
            List<String> types = new ArrayList<>();
            for (Object param : (List<?>) accessor(e.getValue(), "params")) {
                types.add((String) accessor(param, "type"));
            }
            generatorDefined.put((String) e.getKey(), types);
        }
        assertTrue(expectedDefined.size() > 800, "suspiciously few defined rows: " + expectedDefined.size());
        assertEquals(expectedDefined, generatorDefined);
        assertEquals(expectedUndefined, field(manifest, "undefined"));
    }

    private static ClassLoader compileGenerator(Path classes) throws IOException {
        Path source = NativeBuild.moduleDir().resolve("src/build");
        List<String> args = new ArrayList<>(List.of("--release", "17", "-d", classes.toString()));
        try (java.util.stream.Stream<Path> files = Files.list(source)) {
            files.filter(f -> f.toString().endsWith(".java")).map(Path::toString).sorted().forEach(args::add);
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, System.err, args.toArray(String[]::new));
        assertEquals(0, rc, "javac " + args);
        assertTrue(Files.exists(classes.resolve("Manifest.class")));
        return new URLClassLoader(new URL[] {classes.toUri().toURL()}, null);
    }

    private static Object field(Object target, String name) throws ReflectiveOperationException {
        Field f = target.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(target);
    }

    private static Object accessor(Object record, String name) throws ReflectiveOperationException {
        Method m = record.getClass().getDeclaredMethod(name);
        m.setAccessible(true);
        return m.invoke(record);
    }
}
