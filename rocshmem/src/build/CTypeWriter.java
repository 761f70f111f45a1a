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

/** Writes {@code CType.java}: the C element types of the host API, with their Java element type. */
final class CTypeWriter {
    private final Manifest manifest;
    private final List<CType> types;

    CTypeWriter(Manifest manifest, List<CType> types) {
        this.manifest = manifest;
        this.types = types;
    }

    String write() {
        StringBuilder s = new StringBuilder(TypedApiGenerator.BANNER).append("\npackage ").append(TypedApiGenerator.PACKAGE).append(";\n\n");
        s.append("import java.util.EnumSet;\nimport java.util.Set;\n\n");
        s.append("""
                /**
                 * The C element types of the rocSHMEM host API (the {@code TYPENAME} of {@code rocshmem_TYPENAME_put} and
                 * friends), each with the Java element type that holds it on LP64 Linux. A typed view stands for one of
                 * them ({@link SymmetricArray#type()}); which operations it offers follows from what rocSHMEM defines on the
                 * host for that type ({@link #hostOperations()}).
                 *
                 * <p>Unsigned types are carried in the signed Java type of the same width, bit for bit: read them with
                 * {@link Byte#toUnsignedInt}, {@link Short#toUnsignedInt}, {@link Integer#toUnsignedLong} or
                 * {@link Long#toUnsignedString}/{@link Long#compareUnsigned}. The library itself compares and reduces
                 * them as unsigned values.
                 */
                public enum CType {
                """);
        for (int i = 0; i < types.size(); i++) {
            CType t = types.get(i);
            s.append("    /** {@code ").append(t.c()).append("} in a Java {@code ").append(t.java().name)
                    .append("}").append(t.unsigned() ? " (unsigned: same bits)" : "").append(". */\n");
            s.append("    ").append(t.constant()).append("(\"").append(t.tname()).append("\", \"").append(t.c())
                    .append("\", ").append(t.java().name).append(".class, ").append(bytes(t.java()))
                    .append(", ").append(t.unsigned()).append(", \"").append(String.join(",", operations(t)))
                    .append("\", \"").append(String.join(",", served(t)))
                    .append("\")").append(i == types.size() - 1 ? ";\n\n" : ",\n");
        }
        s.append("""
                    private final String rocshmemName;
                    private final String cName;
                    private final Class<?> elementType;
                    private final int bytes;
                    private final boolean unsigned;
                    private final Set<String> hostOperations;
                    private final Set<String> servedOperations;

                    CType(String rocshmemName, String cName, Class<?> elementType, int bytes, boolean unsigned,
                          String hostOperations, String servedOperations) {
                        this.rocshmemName = rocshmemName;
                        this.cName = cName;
                        this.elementType = elementType;
                        this.bytes = bytes;
                        this.unsigned = unsigned;
                        this.hostOperations = Set.of(hostOperations.split(","));
                        this.servedOperations = Set.of(servedOperations.split(","));
                    }

                    /** The infix of the function names, e.g. {@code ulonglong} in {@code rocshmem_ulonglong_put}. */
                    public String rocshmemName() {
                        return rocshmemName;
                    }

                    /** The C spelling, e.g. {@code unsigned long long}. */
                    public String cName() {
                        return cName;
                    }

                    /** The Java primitive class that holds an element. */
                    public Class<?> elementType() {
                        return elementType;
                    }

                    /** Size of one element in bytes. */
                    public int bytes() {
                        return bytes;
                    }

                    public boolean isUnsigned() {
                        return unsigned;
                    }

                    public boolean isFloatingPoint() {
                        return elementType == float.class || elementType == double.class;
                    }

                    /**
                     * The operations rocSHMEM defines on the host for this type, named after the C functions without
                     * type and ctx prefix: {@code put}, {@code atomic_fetch_add}, {@code wait_until_any}, {@code sum_reduce}...
                     */
                    public Set<String> hostOperations() {
                        return hostOperations;
                    }

                    /** Whether rocSHMEM defines {@code rocshmem_<type>_<operation>} (or its ctx form) on the host. */
                    public boolean supports(String operation) {
                        return hostOperations.contains(java.util.Objects.requireNonNull(operation, "operation"));
                    }

                    /**
                     * Whether a view of this type offers {@code operation}: rocSHMEM defines it for this type, or for
                     * a C type of the same width that gives the same result (the view then calls that one; see the
                     * view classes' javadoc). A superset of {@link #hostOperations()}.
                     */
                    public boolean serves(String operation) {
                        return servedOperations.contains(java.util.Objects.requireNonNull(operation, "operation"));
                    }

                    /** The C types a view of {@code elementType} can stand for. */
                    public static Set<CType> forElement(Class<?> elementType) {
                        Set<CType> types = EnumSet.noneOf(CType.class);
                        for (CType t : values()) {
                            if (t.elementType == elementType) {
                                types.add(t);
                            }
                        }
                        return types;
                    }
                }
                """);
        return s.toString();
    }

    /** Operation names (without type and ctx prefix) with a defined host function for type t. */
    Set<String> operations(CType t) {
        Set<String> ops = new TreeSet<>();
        for (String name : manifest.defined.keySet()) {
            for (String prefix : List.of("rocshmem_" + t.tname() + "_", "rocshmem_ctx_" + t.tname() + "_")) {
                if (name.startsWith(prefix)) {
                    String op = name.substring(prefix.length());
                    if (!op.isEmpty() && Character.isLowerCase(op.charAt(0))) {
                        ops.add(op);
                    }
                }
            }
        }
        // names like rocshmem_long_... also prefix rocshmem_longlong_...: keep only this type's own rows
        ops.removeIf(op -> manifest.defined.keySet().stream().noneMatch(n ->
                n.equals("rocshmem_" + t.tname() + "_" + op) || n.equals("rocshmem_ctx_" + t.tname() + "_" + op)));
        return ops;
    }

    /** The operations a view of type t offers: its own host functions and those routed to its width's types. */
    Set<String> served(CType t) {
        Set<String> ops = new TreeSet<>();
        for (CType other : types) {
            if (other.java() == t.java()) {
                for (String op : operations(other)) {
                    if (manifest.route(t, op, false) != null || manifest.route(t, op, true) != null) {
                        ops.add(op);
                    }
                }
            }
        }
        return ops;
    }

    static int bytes(JavaType j) {
        return switch (j) {
            case BYTE -> 1;
            case SHORT -> 2;
            case INT, FLOAT -> 4;
            case LONG, DOUBLE -> 8;
        };
    }
}
