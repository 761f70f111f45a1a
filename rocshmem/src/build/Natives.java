import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Collects the address-typed natives the views call, and writes them with their C++ shims. */
final class Natives {
    /** Which pointer parameter, if any, is a Java array (with an element offset) instead of an address. */
    enum Local { NONE, SOURCE_ARRAY, DEST_ARRAY }

    private final Manifest manifest;
    private final Map<String, String[]> declarations = new LinkedHashMap<>(); // java name -> {java, cpp}
    /** Java return type and parameters ("type name") of each native, for the views' private helpers. */
    private final Map<String, List<String>> signatures = new LinkedHashMap<>();

    Natives(Manifest manifest) {
        this.manifest = manifest;
    }

    /** Registers the native for {@code function} in the given form; returns its Java name. */
    String use(String function, Local local) {
        String javaName = function + switch (local) {
            case NONE -> "";
            case SOURCE_ARRAY -> "_from_array";
            case DEST_ARRAY -> "_to_array";
        };
        declarations.computeIfAbsent(javaName, n -> declare(manifest.get(function), n, local));
        return javaName;
    }

    private String[] declare(Fn f, String javaName, Local local) {
        List<String> javaParams = new ArrayList<>();
        List<String> cppParams = new ArrayList<>();
        List<String> cppArgs = new ArrayList<>();
        for (Param p : f.params()) {
            String n = p.name();
            String type = p.type();
            boolean arrayLocal = (local == Local.SOURCE_ARRAY && n.equals("source"))
                    || (local == Local.DEST_ARRAY && n.equals("dest"));
            if (type.equals("rocshmem_ctx_t")) {
                javaParams.add("long " + n);
                cppParams.add("jlong " + n);
                cppArgs.add("*reinterpret_cast<rocshmem::rocshmem_ctx_t*>(" + n + ")");
            } else if (arrayLocal) {
                JavaType j = JavaType.of(p.pointee());
                javaParams.add(j.name + "[] " + n);
                javaParams.add("int " + n + "Offset");
                cppParams.add((p.isConst() ? "const void* " : "void* ") + n);
                cppParams.add("jint " + n + "Offset");
                cppArgs.add("static_cast<" + p.type() + ">(" + n + ") + " + n + "Offset");
            } else if (n.equals("status") || n.equals("indices") || n.equals("vals")) {
                // per-element arrays of the waits: Java arrays (null for "no status")
                String element = n.equals("status") ? "int" : n.equals("indices") ? "long"
                        : JavaType.of(p.pointee()).name;
                javaParams.add(element + "[] " + n);
                cppParams.add((p.isConst() ? "const void* " : "void* ") + n);
                cppArgs.add("static_cast<" + p.type() + ">(" + n + ")");
            } else if (p.pointer() || type.equals("rocshmem_team_t") || type.equals("hipStream_t")) {
                // addresses and opaque handles travel as jlong
                String cppType = type.equals("rocshmem_team_t") ? "rocshmem::rocshmem_team_t" : p.type();
                javaParams.add("long " + n);
                cppParams.add("jlong " + n);
                cppArgs.add("reinterpret_cast<" + cppType + ">(" + n + ")");
            } else if (type.equals("size_t")) {
                javaParams.add("long " + n);
                cppParams.add("jlong " + n);
                cppArgs.add("static_cast<size_t>(" + n + ")");
            } else if (type.equals("int")) {
                javaParams.add("int " + n);
                cppParams.add("jint " + n);
                cppArgs.add(n);
            } else {
                JavaType j = JavaType.of(type);
                javaParams.add(j.name + " " + n);
                cppParams.add(j.jni + " " + n);
                cppArgs.add("static_cast<" + type + ">(" + n + ")");
            }
        }
        String javaRet;
        String cppRet;
        String call = "rocshmem::" + f.name() + "(" + String.join(", ", cppArgs) + ")";
        String body;
        if (f.ret().equals("void")) {
            javaRet = "void";
            cppRet = "void";
            body = call + ";";
        } else {
            JavaType j = f.ret().equals("size_t") ? JavaType.LONG : JavaType.of(f.ret());
            javaRet = j.name;
            cppRet = j.jni;
            body = "return static_cast<" + j.jni + ">(" + call + ");";
        }
        List<String> signature = new ArrayList<>(javaParams);
        signature.add(0, javaRet);
        signatures.put(javaName, signature);
        // A Java array of a transfer is pinned for the call (no copy in, no copy back); the waits' small
        // status/value arrays are not, since a wait may block for long and a critical region holds off the GC.
        String critical = local == Local.NONE ? "" : "@CriticalRegion ";
        String java = "    " + critical + "static native " + javaRet + " " + javaName + "("
                + String.join(", ", javaParams) + ");\n";
        String cpp = "static inline " + cppRet + " " + javaName + "(" + String.join(", ", cppParams) + ") {\n    "
                + body + "\n}\n";
        return new String[] {java, cpp};
    }

    /** The Java return type, then the parameters ("type name"), of a registered native. */
    List<String> signature(String javaName) {
        return signatures.get(javaName);
    }

    /** hipMemcpy between a Java array (from an element offset) and device memory, per Java element type. */
    void hostCopies() {
        for (JavaType j : JavaType.values()) {
            int bytes = CTypeWriter.bytes(j);
            declarations.put("copy_" + j.name + "_array_to_device", new String[] {
                "    @CriticalRegion static native int copy_" + j.name + "_array_to_device(long dest, " + j.name
                        + "[] source, int sourceOffset, long count);\n",
                "static inline jint copy_" + j.name + "_array_to_device(jlong dest, const void* source, jint sourceOffset,"
                        + " jlong count) {\n    return static_cast<jint>(hipMemcpy(reinterpret_cast<void*>(dest),"
                        + " static_cast<const " + j.jni + "*>(source) + sourceOffset, static_cast<size_t>(count) * " + bytes
                        + ", hipMemcpyHostToDevice));\n}\n"});
            declarations.put("copy_device_to_" + j.name + "_array", new String[] {
                "    @CriticalRegion static native int copy_device_to_" + j.name + "_array(" + j.name
                        + "[] dest, int destOffset, long source, long count);\n",
                "static inline jint copy_device_to_" + j.name + "_array(void* dest, jint destOffset, jlong source,"
                        + " jlong count) {\n    return static_cast<jint>(hipMemcpy(static_cast<" + j.jni
                        + "*>(dest) + destOffset, reinterpret_cast<const void*>(source), static_cast<size_t>(count) * "
                        + bytes + ", hipMemcpyDeviceToHost));\n}\n"});
        }
    }

    String javaClass() {
        StringBuilder s = new StringBuilder(TypedApiGenerator.BANNER).append("\npackage ").append(TypedApiGenerator.PACKAGE).append(";\n\n");
        s.append("import org.bytedeco.javacpp.Loader;\n");
        s.append("import org.bytedeco.javacpp.annotation.CriticalRegion;\n");
        s.append("import org.bytedeco.javacpp.annotation.Namespace;\n");
        s.append("import org.bytedeco.javacpp.annotation.NoException;\n");
        s.append("import org.bytedeco.javacpp.annotation.Platform;\n");
        s.append("import org.bytedeco.javacpp.annotation.Properties;\n\n");
        s.append("""
                /**
                 * rocSHMEM host functions as JavaCPP natives that take raw addresses: the typed views call these, so a
                 * transfer or atomic creates no Pointer object and the JNI code reads no Pointer fields. Each native calls
                 * an inline shim of the same name in {@code rocshmem_java_calls.h}, which casts the addresses back to the
                 * typed pointers, adds Java array offsets and passes the context value; the shim then calls the rocSHMEM
                 * function its name starts with. The Java arrays of transfers and host copies are reached in a JNI
                 * critical region: the call reads or writes the array in place, with no copy in and no copy back.
                 */
                @Properties(inherit = org.rocshmem.presets.rocshmem.class,
                            value = @Platform(include = "rocshmem_java_calls.h", library = "jnirocshmem"))
                @Namespace("rocshmem_java")
                @NoException
                final class AddressCalls {
                    static {
                        Loader.load();
                    }

                    private AddressCalls() {
                    }

                """);
        declarations.values().forEach(d -> s.append(d[0]));
        return s.append("}\n").toString();
    }

    String header() {
        StringBuilder s = new StringBuilder(TypedApiGenerator.BANNER.replace("DO NOT EDIT", "DO NOT EDIT"));
        s.append("""
                // Inline shims behind org.rocshmem.api.AddressCalls: raw addresses (jlong) become typed pointers,
                // Java array elements get their offset, a context address is dereferenced into the by-value
                // rocshmem_ctx_t the library takes. Each shim calls the rocSHMEM function its name starts with.
                #ifndef ROCSHMEM_JAVA_CALLS_H
                #define ROCSHMEM_JAVA_CALLS_H

                #include <jni.h>
                #include <cstddef>
                #include <cstdint>
                #include <rocshmem/rocshmem.hpp>

                namespace rocshmem_java {

                """);
        declarations.values().forEach(d -> s.append(d[1]));
        return s.append("\n}  // namespace rocshmem_java\n\n#endif  // ROCSHMEM_JAVA_CALLS_H\n").toString();
    }
}
