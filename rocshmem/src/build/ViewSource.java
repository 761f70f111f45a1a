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

/**
 * What the writers of one typed view class share: the text being written (the public methods, then the private ctx
 * helpers) and the dispatch of an operation over the view's C types to the functions that serve them.
 */
abstract class ViewSource {
    final Manifest manifest;
    final Natives natives;
    final JavaType java;
    final List<CType> types;
    final String view;
    final String jt;
    final StringBuilder s = new StringBuilder();
    /** Private methods written after the public ones: the ctx forms, kept out of the hot method's bytecode. */
    final StringBuilder helpers = new StringBuilder();
    final Set<String> helperNames = new java.util.HashSet<>();

    ViewSource(Manifest manifest, Natives natives, JavaType java, List<CType> types) {
        this.manifest = manifest;
        this.natives = natives;
        this.java = java;
        this.types = types;
        this.view = java.viewClass;
        this.jt = java.name;
    }


    List<CType> supporting(String op) {
        return types.stream().filter(t -> manifest.route(t, op, false) != null
                || manifest.route(t, op, true) != null).toList();
    }

    String callsAnnotation(List<CType> with, String op) {
        Set<String> names = new LinkedHashSet<>();
        for (CType t : with) {
            for (boolean ctx : new boolean[] {false, true}) {
                String fn = manifest.servedBy(t, op, ctx);
                if (fn != null) {
                    names.add(fn);
                }
            }
        }
        return "    @CallsNative({\"" + String.join("\", \"", names) + "\"})\n";
    }

    void dispatch(List<CType> with, String op, Natives.Local local, Function<CType, String> args,
                          String method, boolean returns) {
        dispatch(with, op, local, args, method, returns, true);
    }

    /**
     * Emits {@code switch (type)} over the C types that have {@code op}, for the default context. When the view has
     * a context the call goes to a private helper holding the ctx forms' switch, so the public method stays small
     * enough for the JIT to inline (HotSpot inlines hot methods of up to 325 bytes of bytecode).
     */
    void dispatch(List<CType> with, String op, Natives.Local local, Function<CType, String> args,
                          String method, boolean returns, boolean hasCtxForms) {
        List<CType> withCtx = with.stream().filter(t -> manifest.route(t, op, true) != null).toList();
        if (!withCtx.isEmpty()) {
            String helper = method + "InContext";
            for (int n = 2; !helperNames.add(helper); n++) {
                helper = method + "InContext" + n; // overloads (view, array) of one method
            }
            List<String> signature = natives.signature(natives.use(manifest.servedBy(withCtx.get(0), op, true),
                    local));
            List<String> params = signature.subList(2, signature.size()); // without the return type and ctx
            String names = params.stream().map(p -> p.substring(p.lastIndexOf(' ') + 1))
                    .collect(Collectors.joining(", "));
            s.append("        if (context != null) {\n            ").append(returns ? "return " : "").append(helper)
                    .append("(").append(args.apply(withCtx.get(0))).append(");\n");
            if (!returns) {
                s.append("            return;\n");
            }
            s.append("        }\n");
            helpers.append("\n    private ").append(returns ? signature.get(0) : "void").append(" ").append(helper)
                    .append("(").append(String.join(", ", params)).append(") {\n        long ctx = context.address();\n");
            switchOn(helpers, with, op, local, t -> "ctx, " + names, method, returns, true, "        ");
            helpers.append("    }\n");
        } else if (hasCtxForms) {
            s.append("        if (context != null) {\n            throw new UnsupportedOperationException(\"rocSHMEM"
                    + " has no ctx form of ").append(op).append(" on the host; use a view without context\");\n"
                    + "        }\n");
        }
        switchOn(s, with, op, local, args, method, returns, false, "        ");
    }

    void switchOn(StringBuilder out, List<CType> with, String op, Natives.Local local,
                          Function<CType, String> args, String method, boolean returns, boolean ctx, String indent) {
        out.append(indent).append(returns ? "return switch (type) {\n" : "switch (type) {\n");
        TypedApiGenerator.byFunction(with, t -> manifest.servedBy(t, op, ctx)).forEach((fn, cases) -> out.append(indent)
                .append("    case ").append(cases).append(" -> AddressCalls.").append(natives.use(fn, local))
                .append("(").append(args.apply(with.get(0))).append(");\n"));
        out.append(indent).append("    default -> throw unsupported(\"").append(method).append("\", \"").append(op)
                .append("\", ").append(ctx).append(", \"").append(with.stream()
                        .filter(t -> manifest.route(t, op, ctx) != null).map(CType::c)
                        .collect(Collectors.joining(", "))).append("\");\n");
        out.append(indent).append("}").append(returns ? ";\n" : "\n");
    }

    /** Like {@link #switchOn} for the int-returning {@code test}: stores the result instead of returning it. */
    void dispatchInto(List<CType> with, String op, String args, String method, String variable) {
        s.append("        ").append(variable).append(" = switch (type) {\n");
        TypedApiGenerator.byFunction(with, t -> manifest.servedBy(t, op, false)).forEach((fn, cases) -> s.append("            case ")
                .append(cases).append(" -> AddressCalls.").append(natives.use(fn, Natives.Local.NONE)).append("(")
                .append(args).append(");\n"));
        s.append("            default -> throw unsupported(\"").append(method).append("\", \"").append(op)
                .append("\", false, \"").append(with.stream().map(CType::c).collect(Collectors.joining(", ")))
                .append("\");\n        };\n");
    }
}
