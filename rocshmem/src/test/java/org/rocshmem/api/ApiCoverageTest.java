package org.rocshmem.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Executable;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.rocshmem.presets.RocshmemManifest;
import org.rocshmem.presets.RocshmemManifest.HostFunction;
import org.rocshmem.api.hip.CallsNative;
import org.rocshmem.api.hip.HipModule;
import org.rocshmem.api.hip.Kernel;

/**
 * Every host function the library defines is reachable from the public API of {@code org.rocshmem.api}: the
 * {@link CallsNative} names on public methods of public classes, compared with the manifest. The only exceptions
 * are the internal hooks below, each with its reason. A manifest row that nothing covers, a name that is not a
 * defined host function, or an exception that is covered after all, fails the test. Reflection only: no native
 * code is loaded.
 */
class ApiCoverageTest {
    /** Defined host functions an application has no use for, and why. */
    static final Map<String, String> NOT_OFFERED = Map.of(
            "set_internal_ctx", "internal: the library installs its device-side default context itself at init",
            "set_team_world_device", "internal: init copies the host ROCSHMEM_TEAM_WORLD handle to the device",
            "set_team_shared_device", "internal: init copies the host ROCSHMEM_TEAM_SHARED handle to the device",
            "RocshmemGetFunctionTable", "internal: the API-trace dispatch table for profilers, not an application call",
            "rocshmem_get_device_ctx", "deprecated upstream for rocshmem_hipmodule_init (Rocshmem.initModule);"
                    + " its result is only usable by device code");

    /** The HIP module and launch functions the kernel API must reach (HipModule, Kernel). */
    static final Set<String> HIP_MODULE_AND_LAUNCH = Set.of("hipModuleLoad", "hipModuleLoadData", "hipModuleUnload",
            "hipModuleGetFunction", "hipModuleGetGlobal", "hipFuncGetAttributes", "hipModuleLaunchKernel");

    /** HIP names in {@link CallsNative} are bound functions, and every module/launch function is reachable. */
    @Test
    void theHipModuleAndLaunchFunctionsAreReachableFromTheApi() throws Exception {
        Set<String> bound = new TreeSet<>();
        for (java.lang.reflect.Method m : Class.forName("org.rocshmem.global.hip", false,
                ApiCoverageTest.class.getClassLoader()).getDeclaredMethods()) {
            bound.add(m.getName());
        }
        Map<String, List<String>> hipCalls = new TreeMap<>(calledNatives());
        hipCalls.keySet().removeIf(name -> !name.startsWith("hip"));
        List<String> problems = new ArrayList<>();
        hipCalls.forEach((name, by) -> {
            if (!bound.contains(name)) {
                problems.add(name + " (named by " + by + ") is not a bound HIP function");
            }
        });
        long covered = HIP_MODULE_AND_LAUNCH.stream().filter(hipCalls::containsKey).count();
        for (String name : new TreeSet<>(HIP_MODULE_AND_LAUNCH)) {
            if (!hipCalls.containsKey(name)) {
                problems.add(name + " (HIP module/launch) is not reachable from org.rocshmem.api");
            }
        }
        System.out.printf("typed coverage [hip module/launch]: %d/%d%n", covered, HIP_MODULE_AND_LAUNCH.size());
        assertEquals(List.of(), problems);
        assertEquals(HIP_MODULE_AND_LAUNCH.size(), covered);
    }

    @Test
    void everyDefinedHostFunctionIsReachableFromTheApi() throws Exception {
        Map<String, String> categoryOf = new TreeMap<>();
        for (HostFunction f : RocshmemManifest.hostFunctions()) {
            if (f.defined() && !f.mpiOnly()) {
                categoryOf.put(f.name(), category(f));
            }
        }
        Map<String, List<String>> coveredBy = calledNatives();
        coveredBy.keySet().removeIf(name -> name.startsWith("hip")); // HIP functions: the test above

        List<String> problems = new ArrayList<>();
        for (String name : coveredBy.keySet()) {
            if (!categoryOf.containsKey(name)) {
                problems.add(name + " (named by " + coveredBy.get(name) + ") is not a defined host function");
            }
        }
        for (Map.Entry<String, String> e : NOT_OFFERED.entrySet()) {
            if (!categoryOf.containsKey(e.getKey())) {
                problems.add("exception " + e.getKey() + " is not a defined host function any more");
            } else if (coveredBy.containsKey(e.getKey())) {
                problems.add("exception " + e.getKey() + " is covered by " + coveredBy.get(e.getKey()) + ": drop it");
            }
        }
        Map<String, int[]> perCategory = new TreeMap<>();
        for (Map.Entry<String, String> e : categoryOf.entrySet()) {
            int[] counts = perCategory.computeIfAbsent(e.getValue(), k -> new int[2]);
            counts[1]++;
            if (coveredBy.containsKey(e.getKey())) {
                counts[0]++;
            } else if (!NOT_OFFERED.containsKey(e.getKey())) {
                problems.add(e.getKey() + " (" + e.getValue() + ") is not reachable from org.rocshmem.api");
            }
        }
        int covered = (int) categoryOf.keySet().stream().filter(coveredBy::containsKey).count();
        perCategory.forEach((category, counts) ->
                System.out.printf("typed coverage [%s]: %d/%d%n", category, counts[0], counts[1]));
        System.out.printf("typed coverage: %d/%d (%d internal, not offered: %s)%n", covered, categoryOf.size(),
                NOT_OFFERED.size(), new TreeSet<>(NOT_OFFERED.keySet()));
        assertEquals(List.of(), problems);
        assertEquals(categoryOf.size(), covered + NOT_OFFERED.size());
        assertTrue(covered > 800, "suspiciously few covered names: " + covered);
    }

    /** The manifest's category, with the typed families (amo, signal, point-to-point sync) split out. */
    private static String category(HostFunction f) {
        String name = f.name();
        if (name.contains("_atomic_")) {
            return "amo";
        } else if (name.contains("signal")) {
            return "signal";
        } else if (name.contains("_wait_until") || name.matches("rocshmem_\\w+_test")) {
            return "wait/test";
        } else if (name.contains("reduce") || name.contains("broadcast") || name.contains("alltoall")) {
            return "collective";
        } else if (name.matches("rocshmem_(ctx_)?\\w*(put|get|_p|_g|putmem|getmem)(_nbi|_on_stream)?")) {
            return "rma";
        } else if (name.contains("team")) {
            return "team";
        } else if (name.contains("barrier") || name.contains("sync") || name.contains("quiet")
                || name.contains("fence")) {
            return "sync";
        } else if (name.contains("ctx")) {
            return "ctx";
        }
        return "setup/memory/query";
    }

    /** Function name -> the API methods whose {@link CallsNative} names it. */
    private static Map<String, List<String>> calledNatives() throws IOException, URISyntaxException,
            ClassNotFoundException {
        Map<String, List<String>> covered = new TreeMap<>();
        for (Class<?> type : apiClasses()) {
            if (!Modifier.isPublic(type.getModifiers())) {
                continue;
            }
            List<Executable> members = new ArrayList<>(List.of(type.getMethods()));
            members.addAll(List.of(type.getConstructors()));
            for (Executable member : members) {
                CallsNative calls = member.getAnnotation(CallsNative.class);
                if (calls != null && member.getDeclaringClass().getPackageName().startsWith("org.rocshmem.api")) {
                    for (String name : calls.value()) {
                        covered.computeIfAbsent(name, k -> new ArrayList<>())
                                .add(member.getDeclaringClass().getSimpleName() + "." + member.getName());
                    }
                }
            }
        }
        return covered;
    }

    /** Every class of org.rocshmem.api and its subpackages, without initializing any (no natives load). */
    static Set<Class<?>> apiClasses() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = Path.of(Rocshmem.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path dir = root.resolve("org/rocshmem/api");
        Set<Class<?>> classes = new java.util.LinkedHashSet<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String name = root.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                classes.add(Class.forName(name, false, ApiCoverageTest.class.getClassLoader()));
            }
        }
        assertTrue(classes.size() > 20, "found too few API classes under " + dir);
        return classes;
    }
}
