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

/** Writes TeamCollectives, the generated superclass of Team: broadcast and the reductions per Java type. */
final class CollectivesWriter {
    private final Manifest manifest;
    private final Natives natives;
    private final List<CType> types;

    CollectivesWriter(Manifest manifest, Natives natives, List<CType> types) {
        this.manifest = manifest;
        this.natives = natives;
        this.types = types;
    }

    String write() {
        StringBuilder s = new StringBuilder(TypedApiGenerator.BANNER).append("\npackage ").append(TypedApiGenerator.PACKAGE).append(";\n\n");
        s.append("import org.rocshmem.api.hip.CallsNative;\nimport org.rocshmem.api.hip.HipStream;\n\n");
        s.append("""
                /**
                 * The typed team collectives, generated from the manifest; {@link Team} is the class to use. rocSHMEM
                 * defines these host collectives only in ctx form, so they run on the session's default context unless
                 * the destination view carries one; that context takes a slot of the library's host-context pool
                 * ({@link Rocshmem#defaultContext()}). Every one is collective over the team: every member calls it with
                 * the same arguments; on {@link Team#INVALID} (this PE is not a member) it returns at once.
                 */
                public abstract sealed class TeamCollectives permits Team {
                    TeamCollectives() {
                    }

                    /** The team handle for a collective, or 0 when the call is a no-op (Team.INVALID). */
                    abstract long collectiveHandle();

                    /** The context handle a collective on {@code view} runs on. */
                    abstract long contextFor(SymmetricArray view);

                    abstract void checkRoot(int root);

                    abstract void checkReduceCounts(String what, SymmetricArray destination, SymmetricArray source,
                                                    boolean scatter);

                    abstract void checkSameShape(SymmetricArray destination, SymmetricArray source);

                    /** The element count of a collective as the library's {@code int nelems}. */
                    abstract int count(SymmetricArray view);

                    abstract UnsupportedOperationException unsupportedType(String what, SymmetricArray view);

                    abstract void checkStatus(String what, int status);

                """);
        for (JavaType j : JavaType.values()) {
            List<CType> family = types.stream().filter(t -> t.java() == j).toList();
            broadcast(s, j, family);
            for (String op : List.of("sum", "prod", "min", "max", "and", "or", "xor")) {
                reduction(s, j, family, op, "reduce", "Reduce", false);
                reduction(s, j, family, op, "reduce_scatter", "ReduceScatter", true);
            }
        }
        return s.append("}\n").toString();
    }

    private void broadcast(StringBuilder s, JavaType j, List<CType> family) {
        List<CType> with = family.stream().filter(t -> manifest.route(t, "broadcast", true) != null).toList();
        if (with.isEmpty()) {
            return;
        }
        s.append("    /**\n     * Broadcast (rocshmem_ctx_TYPE_broadcast): {@code source} of the team's PE {@code root}")
                .append(" (numbered in this team)\n     * arrives in {@code destination} of every member.")
                .append(" Both views have the same length and C type.\n     */\n");
        s.append("    @CallsNative({\"").append(with.stream().map(t -> fn(t, "broadcast")).distinct()
                .collect(Collectors.joining("\", \""))).append("\"})\n");
        s.append("    public final void broadcast(").append(j.viewClass).append(" destination, ").append(j.viewClass)
                .append(" source, int root) {\n");
        s.append("        long team = collectiveHandle();\n        if (team == 0) {\n            return;\n        }\n");
        s.append("        checkRoot(root);\n        checkSameShape(destination, source);\n");
        s.append("        long dest = destination.localBase();\n"
                + "        long src = source.localBase();\n        int n = count(destination);\n");
        s.append("        switch (destination.type) {\n");
        TypedApiGenerator.byFunction(with, t -> fn(t, "broadcast")).forEach((f, cases) -> s.append("            case ").append(cases)
                .append(" -> AddressCalls.").append(natives.use(f, Natives.Local.NONE))
                .append("(contextFor(destination), team, dest, src, n, root);\n"));
        s.append("            default -> throw unsupportedType(\"broadcast\", destination);\n        }\n    }\n\n");
    }

    private void reduction(StringBuilder s, JavaType j, List<CType> family, String op, String kind,
                           String methodKind, boolean scatter) {
        List<CType> with = family.stream().filter(t -> manifest.route(t, op + "_" + kind, true) != null).toList();
        if (with.isEmpty()) {
            return; // e.g. no bitwise reduction on floating types: the method must not exist
        }
        String method = op + methodKind;
        String doc = scatter
                ? "Reduce-scatter with " + op + ": {@code source} holds one block of {@code destination.length()}"
                        + " elements per team member;\n     * block {@code i} of every member is reduced into"
                        + " {@code destination} of member {@code i}."
                : "All-reduce with " + op + ": element-wise " + op + " of every member's {@code source} arrives in"
                        + " {@code destination}\n     * of every member (equal lengths; the views may be the same).";
        // The context is taken in the case arm, after the type check: argument errors before resource errors.
        s.append("    /**\n     * ").append(doc).append(" (rocshmem_ctx_TYPE_").append(op).append("_").append(kind)
                .append(")\n     */\n");
        s.append("    @CallsNative({\"").append(with.stream().map(t -> fn(t, op + "_" + kind)).distinct()
                .collect(Collectors.joining("\", \""))).append("\"})\n");
        s.append("    public final void ").append(method).append("(").append(j.viewClass).append(" destination, ")
                .append(j.viewClass).append(" source) {\n");
        s.append("        long team = collectiveHandle();\n        if (team == 0) {\n            return;\n        }\n");
        s.append("        checkReduceCounts(\"").append(method).append("\", destination, source, ").append(scatter)
                .append(");\n");
        s.append("        long dest = destination.localBase();\n"
                + "        long src = source.localBase();\n        int n = count(destination);\n");
        s.append("        int status = switch (destination.type) {\n");
        TypedApiGenerator.byFunction(with, t -> fn(t, op + "_" + kind)).forEach((f, cases) -> s.append("            case ")
                .append(cases).append(" -> AddressCalls.").append(natives.use(f, Natives.Local.NONE))
                .append("(contextFor(destination), team, dest, src, n);\n"));
        s.append("            default -> throw unsupportedType(\"").append(method).append("\", destination);\n        };\n");
        s.append("        checkStatus(\"").append(method).append("\", status);\n    }\n\n");
        // stream form
        String streamFn = op + "_reduce_on_stream";
        if (!scatter && with.stream().anyMatch(t -> manifest.route(t, streamFn, true) != null)) {
            List<CType> ws = with.stream().filter(t -> manifest.route(t, streamFn, true) != null).toList();
            s.append("    /** Stream-ordered form of {@link #").append(method).append("(").append(j.viewClass)
                    .append(", ").append(j.viewClass).append(")}: enqueued on {@code stream}")
                    .append(" (rocshmem_ctx_TYPE_").append(streamFn).append("). */\n");
            s.append("    @CallsNative({\"").append(ws.stream().map(t -> fn(t, streamFn)).distinct()
                    .collect(Collectors.joining("\", \""))).append("\"})\n");
            s.append("    public final void ").append(method).append("(HipStream stream, ").append(j.viewClass)
                    .append(" destination, ").append(j.viewClass).append(" source) {\n");
            s.append("        long team = collectiveHandle();\n        if (team == 0) {\n            return;\n        }\n");
            s.append("        checkReduceCounts(\"").append(method).append("\", destination, source, false);\n");
            s.append("        long dest = destination.localBase();\n"
                    + "        long src = source.localBase();\n        int n = count(destination);\n"
                    + "        long queue = stream.address();\n");
            s.append("        int status = switch (destination.type) {\n");
            TypedApiGenerator.byFunction(ws, t -> fn(t, streamFn)).forEach((f, cases) -> s.append("            case ").append(cases)
                    .append(" -> AddressCalls.").append(natives.use(f, Natives.Local.NONE))
                    .append("(contextFor(destination), team, dest, src, n, queue);\n"));
            s.append("            default -> throw unsupportedType(\"").append(method)
                    .append("\", destination);\n        };\n");
            s.append("        checkStatus(\"").append(method).append("\", status);\n    }\n\n");
        }
    }

    /** The ctx-form host function that serves {@code op} for destination type {@code t} ({@link Manifest#route}). */
    private String fn(CType t, String op) {
        return manifest.servedBy(t, op, true);
    }
}
