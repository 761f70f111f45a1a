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

/** Writes the atomic matrix of a typed view: every atomic operation some of the view's C types have. */
final class AtomicsWriter {
    private AtomicsWriter() {
    }


    static final String[][] AMO = {
            // op, Java method, parameters after (pe, index), arguments after the address, doc
            {"fetch", "atomicFetch", "", "", "Atomically reads PE {@code pe}'s element {@code index}."},
            {"set", "atomicSet", ", JT value", ", value", "Atomically writes {@code value}."},
            {"swap", "atomicSwap", ", JT value", ", value", "Atomically writes {@code value}; returns the old value."},
            {"compare_swap", "atomicCompareSwap", ", JT expected, JT value", ", expected, value",
                    "Atomically writes {@code value} if the element equals {@code expected}; returns the old value"
                            + " (equal to {@code expected} exactly when the swap happened)."},
            {"inc", "atomicInc", "", "", "Atomically adds 1."},
            {"fetch_inc", "atomicFetchInc", "", "", "Atomically adds 1; returns the old value."},
            {"add", "atomicAdd", ", JT value", ", value", "Atomically adds {@code value}."},
            {"fetch_add", "atomicFetchAdd", ", JT value", ", value", "Atomically adds {@code value}; returns the old value."},
            {"and", "atomicAnd", ", JT value", ", value", "Atomically ANDs {@code value} in."},
            {"fetch_and", "atomicFetchAnd", ", JT value", ", value", "Atomically ANDs {@code value} in; returns the old value."},
            {"or", "atomicOr", ", JT value", ", value", "Atomically ORs {@code value} in."},
            {"fetch_or", "atomicFetchOr", ", JT value", ", value", "Atomically ORs {@code value} in; returns the old value."},
            {"xor", "atomicXor", ", JT value", ", value", "Atomically XORs {@code value} in."},
            {"fetch_xor", "atomicFetchXor", ", JT value", ", value", "Atomically XORs {@code value} in; returns the old value."},
    };

    /** The atomic methods of {@code view}'s class, for every atomic some of its C types have. */
    static void write(ViewSource view) {
        for (String[] a : AMO) {
            String op = "atomic_" + a[0];
            List<CType> with = view.supporting(op);
            if (with.isEmpty()) {
                continue; // e.g. no bitwise atomics exist for any floating type: the method must not exist
            }
            String served = view.manifest.servedBy(with.get(0), op, false);
            boolean fetching = !view.manifest.get(served != null ? served : view.manifest.servedBy(with.get(0), op, true))
                    .ret().equals("void");
            view.s.append("    /** ").append(a[4]).append(" (rocshmem_TYPE_").append(op).append(") */\n");
            view.s.append(view.callsAnnotation(with, op));
            view.s.append("    public ").append(fetching ? view.jt : "void").append(" ").append(a[1]).append("(int pe, long index")
                    .append(a[2].replace("JT", view.jt)).append(") {\n        long remote = remote(pe, index);\n");
            String args = "remote" + a[3] + ", pe";
            view.dispatch(with, op, Natives.Local.NONE, t -> args, a[1], fetching);
            view.s.append("    }\n\n");
        }
    }
}
