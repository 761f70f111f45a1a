package org.rocshmem.rocshmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.Buffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.bytedeco.javacpp.Pointer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rocshmem.hip.ihipModule_t;
import org.rocshmem.hip.ihipStream_t;
import org.rocshmem.presets.RocshmemManifest;
import org.rocshmem.presets.RocshmemManifest.HostFunction;

/**
 * The generated global class binds exactly the host functions the real library defines: every
 * defined manifest row has a native method with the same name and mapped parameter types, and
 * no undefined or device-only function is bound. Reflection only: no native code is loaded.
 */
class BindingCoverageTest {
    private static final Map<String, List<Method>> BOUND = new HashMap<>();

    @BeforeAll
    static void reflect() throws Exception {
        Class<?> global = Class.forName("org.rocshmem.global.rocshmem", false, BindingCoverageTest.class.getClassLoader());
        for (Method m : global.getDeclaredMethods()) {
            if (Modifier.isNative(m.getModifiers()) && m.getName().startsWith("rocshmem_") || m.getName().equals("RocshmemGetFunctionTable")
                    || m.getName().startsWith("set_")) {
                BOUND.computeIfAbsent(m.getName(), k -> new ArrayList<>()).add(m);
            }
        }
    }

    @Test
    void everyDefinedHostFunctionIsBoundWithMappedTypes() throws Exception {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (HostFunction f : RocshmemManifest.hostFunctions()) {
            if (!f.defined() || f.mpiOnly()) {
                continue;
            }
            checked++;
            List<Method> candidates = BOUND.getOrDefault(f.name(), List.of());
            boolean match = candidates.stream().anyMatch(m -> matches(f, m));
            if (!match) {
                problems.add(f.name() + f.paramTypes() + (candidates.isEmpty() ? " not bound" : " bound with other types"));
            }
        }
        assertTrue(checked > 850, "suspiciously few defined functions in the manifest: " + checked);
        assertEquals(List.of(), problems);
    }

    @Test
    void nothingTheLibraryLacksIsBound() throws Exception {
        Set<String> defined = new TreeSet<>();
        Set<String> undefined = new TreeSet<>();
        for (HostFunction f : RocshmemManifest.hostFunctions()) {
            (f.defined() && !f.mpiOnly() ? defined : undefined).add(f.name());
        }
        undefined.removeAll(defined);
        Set<String> extra = new TreeSet<>(BOUND.keySet());
        extra.removeAll(defined);
        assertEquals(Set.of(), extra, "bound but not defined by the library");
        Set<String> leaked = new TreeSet<>(undefined);
        leaked.retainAll(BOUND.keySet());
        assertEquals(Set.of(), leaked, "declared-but-undefined functions must not be bound");
    }

    /** Catches a device-only overload of a defined name (e.g. rocshmem_ctx_fence(ctx, int)). */
    @Test
    void everyBoundOverloadIsADefinedSignature() throws Exception {
        List<HostFunction> defined = RocshmemManifest.hostFunctions().stream().filter(f -> f.defined() && !f.mpiOnly()).toList();
        List<String> strays = new ArrayList<>();
        BOUND.forEach((name, methods) -> {
            for (Method m : methods) {
                if (defined.stream().noneMatch(f -> f.name().equals(name) && matches(f, m))) {
                    strays.add(m.toString());
                }
            }
        });
        assertEquals(List.of(), strays, "bound overloads that match no defined host signature");
    }

    /** Return type and each parameter: the Java type must be what JavaCPP maps the C type to. */
    private static boolean matches(HostFunction f, Method m) {
        // JavaCPP adds an overload without the trailing defaulted parameters.
        int n = m.getParameterCount();
        if (n < f.requiredParams() || n > f.paramTypes().size() || !accepts(f.returnType(), m.getReturnType())) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (!accepts(f.paramTypes().get(i), m.getParameterTypes()[i])) {
                return false;
            }
        }
        return true;
    }

    static boolean accepts(String cType, Class<?> java) {
        String t = cType.replace("const ", "").replace("rocshmem::", "").trim();
        if (t.endsWith("*")) {
            String pointee = t.substring(0, t.length() - 1).trim();
            if (pointee.equals("rocshmem_ctx_t")) {
                return java == rocshmem_ctx_t.class;
            }
            if (pointee.equals("rocshmem_team_config_t")) {
                return java == rocshmem_team_config_t.class;
            }
            if (pointee.equals("rocshmem_init_attr_t")) {
                return java == rocshmem_init_attr_t.class;
            }
            if (pointee.equals("QpInfo")) {
                return java == QpInfo.class;
            }
            if (pointee.equals("rocshmemApiFuncTable")) {
                return java == rocshmemApiFuncTable.class;
            }
            if (pointee.equals("char") && java == String.class) {
                return true; // JavaCPP's String overload of char*
            }
            return Pointer.class.isAssignableFrom(java) || Buffer.class.isAssignableFrom(java) || java.isArray();
        }
        switch (t) {
            case "void": return java == void.class;
            case "bool": return java == boolean.class;
            case "float": return java == float.class;
            case "double": return java == double.class;
            case "char": case "signed char": case "unsigned char": case "int8_t": case "uint8_t": return java == byte.class;
            case "short": case "unsigned short": case "int16_t": case "uint16_t": return java == short.class;
            case "int": case "unsigned int": case "int32_t": case "uint32_t": return java == int.class;
            case "long": case "unsigned long": case "long long": case "unsigned long long": case "int64_t": case "uint64_t":
            case "size_t": case "ptrdiff_t": return java == long.class;
            case "rocshmem_team_t": return java == long.class; // uint64_t* handle, kept as its value
            case "rocshmem_ctx_t": return java == rocshmem_ctx_t.class;
            case "hipStream_t": return java == ihipStream_t.class;
            case "hipModule_t": return java == ihipModule_t.class;
            case "BackendType": case "QpInfoVendor": return java.isEnum() && java.getSimpleName().equals(t);
            default: return false;
        }
    }
}
