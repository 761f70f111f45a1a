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

// The facts the generator works from: the manifest's rows, the C element types and the six Java types.

/** The six Java element types and the names derived from them. */
enum JavaType {
    BYTE("byte", "Byte", "SymmetricBytes", "jbyte"),
    SHORT("short", "Short", "SymmetricShorts", "jshort"),
    INT("int", "Integer", "SymmetricInts", "jint"),
    LONG("long", "Long", "SymmetricLongs", "jlong"),
    FLOAT("float", "Float", "SymmetricFloats", "jfloat"),
    DOUBLE("double", "Double", "SymmetricDoubles", "jdouble");

    final String name;
    final String boxed;
    final String viewClass;
    final String jni;

    JavaType(String name, String boxed, String viewClass, String jni) {
        this.name = name;
        this.boxed = boxed;
        this.viewClass = viewClass;
        this.jni = jni;
    }

    boolean floating() {
        return this == FLOAT || this == DOUBLE;
    }

    /** The direct load/store view of a peer's copy: {@code PeerLongs} for {@code SymmetricLongs}. */
    String peerClass() {
        return "Peer" + viewClass.substring("Symmetric".length());
    }

    /** The JavaCPP pointer class of the element type: {@code LongPointer}. */
    String pointerClass() {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1) + "Pointer";
    }

    /** The LP64 Java element type of a C element type (the ABI rocSHMEM is built for). */
    static JavaType of(String c) {
        return switch (c) {
            case "float" -> FLOAT;
            case "double" -> DOUBLE;
            case "char", "signed char", "unsigned char", "int8_t", "uint8_t" -> BYTE;
            case "short", "unsigned short", "int16_t", "uint16_t" -> SHORT;
            case "int", "unsigned int", "int32_t", "uint32_t" -> INT;
            case "long", "unsigned long", "long long", "unsigned long long", "int64_t", "uint64_t", "size_t",
                 "ptrdiff_t" -> LONG;
            default -> throw new IllegalArgumentException("no Java element type for C type '" + c + "'");
        };
    }
}

/** One C element type of the host API: its name infix ({@code ulonglong}) and C spelling. */
record CType(String tname, String c, JavaType java) {
    String constant() {
        return tname.toUpperCase(Locale.ROOT);
    }

    boolean unsigned() {
        return c.startsWith("unsigned") || c.startsWith("uint") || c.equals("size_t");
    }
}

record Param(String type, String name) {
    boolean pointer() {
        return type.endsWith("*");
    }

    String pointee() {
        return type.replace("*", "").replace("const ", "").trim();
    }

    boolean isConst() {
        return type.startsWith("const ");
    }
}

record Fn(String name, String ret, List<Param> params, String flags) {
}

/**
 * The defined host functions of the manifest, by name (legacy active-set overloads left out). A copy of
 * org.rocshmem.presets.RocshmemManifest's row reading, with the same flag spellings: the generator runs
 * before the module is compiled and cannot use it. ManifestReadersTest proves that both read the same rows.
 */
final class Manifest {
    static final String UNDEFINED_FLAG = "no-host-definition-seen-in-src/rocshmem.cpp";
    static final String MPI_ONLY_FLAG = "MPI_Comm-param";
    static final String LEGACY_ACTIVE_SET_FLAG = "legacy-active-set-signature";

    final Map<String, Fn> defined = new LinkedHashMap<>();
    final Set<String> undefined = new LinkedHashSet<>();
    final Set<String> deviceNames = new LinkedHashSet<>();

    static Manifest load(Path dir) throws IOException {
        Manifest m = new Manifest();
        List<String> lines = Files.readAllLines(dir.resolve("host-functions.tsv"), StandardCharsets.UTF_8);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t", -1);
            String name = f[0];
            String flags = f[5];
            if (flags.contains(UNDEFINED_FLAG)) {
                m.undefined.add(name);
                continue;
            }
            if (flags.contains(LEGACY_ACTIVE_SET_FLAG) || flags.contains(MPI_ONLY_FLAG)) {
                continue;
            }
            m.defined.putIfAbsent(name, new Fn(name, f[1].trim(), params(f[2]), flags));
        }
        List<String> device = Files.readAllLines(dir.resolve("device-functions.tsv"), StandardCharsets.UTF_8);
        for (String line : device.subList(1, device.size())) {
            m.deviceNames.add(line.split("\t", -1)[0]);
        }
        return m;
    }

    static List<Param> params(String text) {
        List<Param> params = new ArrayList<>();
        if (text.isBlank()) {
            return params;
        }
        Pattern p = Pattern.compile("^(.*?)\\s*\\b(\\w+)\\s*(=.*)?$");
        for (String part : text.split(";")) {
            Matcher m = p.matcher(part.trim());
            if (!m.matches()) {
                throw new IllegalArgumentException("cannot read parameter '" + part + "'");
            }
            String type = m.group(1).replaceAll("\\s*\\*\\s*", "*").trim();
            params.add(new Param(type.replace("*", " *").replace(" *", "*"), m.group(2)));
        }
        return params;
    }

    Fn get(String name) {
        Fn f = defined.get(name);
        if (f == null) {
            throw new IllegalStateException(name + " is not a defined host function");
        }
        return f;
    }

    boolean has(String name) {
        return defined.containsKey(name);
    }

    /** The C element types, in the order of the manifest's put rows. */
    List<CType> cTypes() {
        List<CType> types = new ArrayList<>();
        Pattern put = Pattern.compile("rocshmem_(\\w+)_put");
        for (Fn f : defined.values()) {
            Matcher m = put.matcher(f.name());
            if (m.matches() && !m.group(1).startsWith("ctx")) {
                String c = f.params().get(0).pointee();
                types.add(new CType(m.group(1), c, JavaType.of(c)));
            }
        }
        return types;
    }

    String fn(CType t, String op, boolean ctx) {
        return "rocshmem_" + (ctx ? "ctx_" : "") + t.tname() + "_" + op;
    }

    /**
     * The C type whose host function serves {@code op} for a view of type {@code t}: {@code t} itself when
     * rocSHMEM defines it, else a type of the same width. In two's complement add, swap, fetch, set,
     * compare-swap, the bitwise operations, sum and product have the same bits for every C type of one width, so
     * any of them serves (one of the same signedness first); comparisons (waits, test) and min/max depend on
     * signedness, so only a type of the same signedness serves them. Null when no type serves it.
     */
    CType route(CType t, String op, boolean ctx) {
        if (has(fn(t, op, ctx))) {
            return t;
        }
        boolean signSensitive = op.startsWith("wait_until") || op.equals("test") || op.startsWith("min_")
                || op.startsWith("max_");
        CType any = null;
        for (CType other : cTypes()) {
            if (other.java() != t.java() || !has(fn(other, op, ctx))) {
                continue;
            }
            if (other.unsigned() == t.unsigned()) {
                return other;
            }
            if (any == null && !signSensitive) {
                any = other;
            }
        }
        return any;
    }

    /** The host function that serves {@code op} for a view of type {@code t} (see {@link #route}), or null. */
    String servedBy(CType t, String op, boolean ctx) {
        CType via = route(t, op, ctx);
        return via == null ? null : fn(via, op, ctx);
    }
}
