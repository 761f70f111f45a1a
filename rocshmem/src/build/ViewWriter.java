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

/** Writes one typed view class: RMA, host copies and waits (the atomics: {@link AtomicsWriter}) for every C type of its Java type. */
final class ViewWriter extends ViewSource {
    ViewWriter(Manifest manifest, Natives natives, JavaType java, List<CType> types) {
        super(manifest, natives, java, types);
    }

    String write() {
        s.append(TypedApiGenerator.BANNER).append("\npackage ").append(TypedApiGenerator.PACKAGE).append(";\n\n");
        s.append("import org.rocshmem.api.hip.CallsNative;\nimport org.rocshmem.api.hip.HipException;\n\n");
        classJavadoc();
        s.append("public final class ").append(view).append(" extends SymmetricArray {\n");
        s.append("    ").append(view).append("(Rocshmem session, Allocation allocation, long address, long length,"
                + " CType type, Context context) {\n        super(session, allocation, address, length, type,"
                + " context);\n    }\n\n");
        derivations();
        copies();
        rma();
        AtomicsWriter.write(this);
        waits();
        return s.append(helpers).append("}\n").toString();
    }

    private void classJavadoc() {
        s.append("/**\n * Symmetric memory as {@code ").append(jt).append("} elements: a typed view of a")
                .append(" {@link SymmetricBuffer}\n * (see {@link SymmetricArray} for what every view shares).\n *\n")
                .append(" * <p>C types it can stand for, and what rocSHMEM defines on the host for each")
                .append(" (the view's\n * {@link #type()} selects the functions; an operation no C type of its")
                .append(" width serves throws\n * {@link UnsupportedOperationException} naming the types that have it):\n")
                .append(" * <table>\n * <caption>host operations per C type</caption>\n")
                .append(" * <tr><th>C type</th><th>RMA</th><th>atomics</th><th>wait/test</th><th>reductions</th></tr>\n");
        for (CType t : types) {
            s.append(" * <tr><td>{@link CType#").append(t.constant()).append("} ({@code ").append(t.c())
                    .append("})</td><td>").append(yes(t, "put")).append("</td><td>").append(atomicSummary(t))
                    .append("</td><td>").append(yes(t, "wait_until")).append("</td><td>")
                    .append(reductionSummary(t)).append("</td></tr>\n");
        }
        s.append(" * </table>\n");
        List<String> unsigned = types.stream().filter(CType::unsigned).map(CType::c).toList();
        if (!unsigned.isEmpty()) {
            s.append(" *\n * <p>Unsigned types (").append(String.join(", ", unsigned)).append(") travel as the")
                    .append(" same bits in a {@code ").append(jt).append("};\n * ").append(unsignedHint())
                    .append("\n");
        }
        routingJavadoc();
        s.append(" *\n * <p>Not offered because rocSHMEM has no host form of them (device code only): ")
                .append(deviceOnlyNote()).append(".\n */\n");
    }

    /**
     * Which C function serves an operation that rocSHMEM lacks for a view's own C type: one of the same width
     * (and, for comparisons and min/max, the same signedness; see {@link Manifest#route}).
     */
    private void routingJavadoc() {
        List<String> ops = new ArrayList<>(List.of("p", "g", "put", "get", "put_nbi", "get_nbi"));
        for (String[] a : AtomicsWriter.AMO) {
            ops.add("atomic_" + a[0]);
        }
        ops.addAll(List.of("wait_until", "test", "wait_until_all", "wait_until_any", "wait_until_some",
                "wait_until_all_vector", "wait_until_any_vector", "wait_until_some_vector"));
        for (String r : List.of("sum", "prod", "min", "max", "and", "or", "xor")) {
            ops.add(r + "_reduce");
        }
        StringBuilder rows = new StringBuilder();
        for (CType t : types) {
            Map<String, List<String>> byVia = new LinkedHashMap<>();
            for (String op : ops) {
                boolean reduction = op.endsWith("_reduce");
                CType via = manifest.route(t, op, reduction);
                if (via != null && via != t) {
                    byVia.computeIfAbsent(via.tname(), k -> new ArrayList<>()).add(op);
                }
            }
            byVia.forEach((via, list) -> rows.append(" * <li>{@code ").append(t.c()).append("}: {@code ")
                    .append(String.join("}, {@code ", list)).append("} call {@code rocshmem_").append(via)
                    .append("_*}</li>\n"));
        }
        if (rows.length() == 0) {
            return;
        }
        s.append(" *\n * <p>Where rocSHMEM lacks an operation for the view's own C type, the view calls the function")
                .append(" of a C type of the\n * same width, which gives the same bits in two's complement (add,")
                .append(" swap, fetch, set, compare-swap, the\n * bitwise operations, sum and product); comparisons")
                .append(" (waits, test) and min/max are only served by a type of the same\n * signedness. So every")
                .append(" operation below works for every listed type:\n * <ul>\n").append(rows)
                .append(" * </ul>\n");
    }

    private String unsignedHint() {
        return switch (java) {
            case BYTE -> "read them with {@link Byte#toUnsignedInt(byte)}.";
            case SHORT -> "read them with {@link Short#toUnsignedInt(short)}.";
            case INT -> "read them with {@link Integer#toUnsignedLong(int)} or {@link Integer#compareUnsigned}.";
            case LONG -> "read them with {@link Long#toUnsignedString(long)} or {@link Long#compareUnsigned}.";
            default -> "";
        };
    }

    private String yes(CType t, String op) {
        return manifest.has(manifest.fn(t, op, false)) ? "yes" : "-";
    }

    private String atomicSummary(CType t) {
        boolean std = manifest.has(manifest.fn(t, "atomic_fetch_add", false));
        boolean bit = manifest.has(manifest.fn(t, "atomic_fetch_and", false));
        boolean basic = manifest.has(manifest.fn(t, "atomic_fetch", false));
        return bit ? "all 14" : std ? "all but bitwise" : basic ? "fetch, set, swap" : "-";
    }

    private String reductionSummary(CType t) {
        boolean arith = manifest.has(manifest.fn(t, "sum_reduce", true));
        boolean bit = manifest.has(manifest.fn(t, "and_reduce", true));
        return bit ? "all 7" : arith ? "sum, prod, min, max" : "-";
    }

    private String deviceOnlyNote() {
        List<String> families = List.of("put_signal", "put_signal_nbi", "signal_fetch", "atomic_fetch_add_nbi",
                "iput", "iget", "alltoall", "fcollect", "test_all", "test_any", "test_some");
        List<String> absent = new ArrayList<>();
        for (String family : families) {
            boolean host = types.stream().anyMatch(t -> manifest.has(manifest.fn(t, family, false))
                    || manifest.has(manifest.fn(t, family, true)));
            boolean device = manifest.deviceNames.stream().anyMatch(n -> n.endsWith("_" + family)
                    || n.contains("_" + family + "_"));
            if (!host && device) {
                absent.add(family);
            }
        }
        return absent.isEmpty() ? "none" : "{@code " + String.join("}, {@code ", absent) + "}";
    }

    // ---------------------------------------------------------------- derivations

    private void derivations() {
        s.append("""
                    @Override
                    public VIEW slice(long from, long count) {
                        return new VIEW(session, allocation, sliceAddress(from, count), count, type, context);
                    }

                    /** The same memory as another C type of the same Java element type (e.g. signed to unsigned). */
                    public VIEW as(CType newType) {
                        requireElementType(newType, JT.class);
                        requireLive();
                        return new VIEW(session, allocation, address, length, newType, context);
                    }

                    /** This view with its operations going through {@code ctx} ({@code null}: the default context). */
                    public VIEW withContext(Context ctx) {
                        if (ctx != null) {
                            ctx.address(); // refuses a closed context now rather than at the first transfer
                        }
                        requireLive();
                        return new VIEW(session, allocation, address, length, type, ctx);
                    }

                """.replace("VIEW", view).replace("JT", jt));
    }

    // ---------------------------------------------------------------- host copies (hipMemcpy)

    private void copies() {
        s.append("""
                    /** Copies the whole {@code source} array into this PE's copy of the view (hipMemcpy host to device). */
                    public void copyFrom(JT[] source) {
                        requireArrayLength("source array", source.length);
                        copyFrom(source, 0);
                    }

                    /** Copies {@link #length()} elements from {@code source[offset...]} into this PE's copy of the view. */
                    public void copyFrom(JT[] source, int offset) {
                        requireArrayRange("source array", source.length, offset);
                        HipException.check(AddressCalls.copy_JT_array_to_device(localBase(), source, offset, length), "hipMemcpy(host to device)");
                    }

                    /** Copies this PE's copy of the view into the whole {@code destination} array (device to host). */
                    public void copyTo(JT[] destination) {
                        requireArrayLength("destination array", destination.length);
                        copyTo(destination, 0);
                    }

                    /** Copies this PE's copy of the view into {@code destination[offset...]}. */
                    public void copyTo(JT[] destination, int offset) {
                        requireArrayRange("destination array", destination.length, offset);
                        HipException.check(AddressCalls.copy_device_to_JT_array(destination, offset, localBase(), length), "hipMemcpy(device to host)");
                    }

                    /** This PE's copy of the view as a new array. */
                    public JT[] toArray() {
                        if (length > Integer.MAX_VALUE - 8) {
                            throw new IllegalStateException(this + " has too many elements for a Java array");
                        }
                        JT[] copy = new JT[(int) length];
                        copyTo(copy, 0);
                        return copy;
                    }

                """.replace("JT", jt));
    }

    // ---------------------------------------------------------------- RMA

    private void rma() {
        transfer("put", "put", "Blocking put (rocshmem_TYPE_put): copies", true, true);
        transfer("get", "get", "Blocking get (rocshmem_TYPE_get): copies", false, true);
        // Non-blocking forms take views only: the transfer may still read or write its local side after the
        // call returns (until quiet), and a Java array may move or die by then; on a GPU it is not even
        // device-visible. Stage arrays through a symmetric or registered view instead.
        String nbiNote = "\n     * <p>Views only: a non-blocking transfer may use its local side until quiet, and a Java array"
                + " is neither\n     * pinned that long nor visible to a GPU. For an array, use the blocking form, or copy it"
                + " into a local\n     * symmetric view ({@code copyFrom}) and transfer that view.";
        transfer("putNbi", "put_nbi", "Non-blocking put (rocshmem_TYPE_put_nbi), complete after quiet: copies", true,
                false, nbiNote);
        transfer("getNbi", "get_nbi", "Non-blocking get (rocshmem_TYPE_get_nbi), complete after quiet: copies", false,
                false, nbiNote);
        single();
        localElement();
    }

    /** put/get between this view on PE pe and a local view, a whole array, or an array from an offset. */
    private void transfer(String method, String op, String doc, boolean put, boolean arrayForms) {
        transfer(method, op, doc, put, arrayForms, "");
    }

    private void transfer(String method, String op, String doc, boolean put, boolean arrayForms, String note) {
        List<CType> with = supporting(op);
        String calls = callsAnnotation(with, op);
        String local = put ? "source" : "destination";
        String what = put ? "the local {@code source} into PE {@code pe}'s copy of this view"
                : "PE {@code pe}'s copy of this view into the local {@code destination}";
        // view form
        s.append("    /** ").append(doc).append(" ").append(what).append(" (equal lengths).").append(note)
                .append(" */\n");
        s.append(calls);
        s.append("    public void ").append(method).append("(int pe, ").append(view).append(" ").append(local)
                .append(") {\n        requireSameLength(").append(local).append(", \"").append(local)
                .append("\");\n");
        s.append("        long remote = remoteBase(pe);\n        long local = ").append(local)
                .append(".localBase();\n");
        dispatch(with, op, Natives.Local.NONE, t -> put ? "remote, local, length, pe" : "local, remote, length, pe",
                method, false);
        s.append("    }\n\n");
        if (!arrayForms) {
            return;
        }
        // whole-array form
        s.append("    /** ").append(doc).append(" ").append(what.replace("local {@code", "array {@code"))
                .append(" (the array has exactly {@link #length()} elements). The array is read or written in")
                .append(" place for the\n     * duration of the call (a JNI critical region: no copy in, no copy back). */\n");
        s.append(calls);
        s.append("    public void ").append(method).append("(int pe, ").append(jt).append("[] ").append(local)
                .append(") {\n        requireArrayLength(\"").append(local).append(" array\", ").append(local)
                .append(".length);\n        ").append(method).append("(pe, ").append(local).append(", 0);\n    }\n\n");
        // array + offset form
        s.append("    /** ").append(doc).append(" {@link #length()} elements between ")
                .append(put ? "{@code source[offset...]} and PE {@code pe}'s copy of this view"
                        : "PE {@code pe}'s copy of this view and {@code destination[offset...]}").append(". */\n");
        s.append(calls);
        s.append("    public void ").append(method).append("(int pe, ").append(jt).append("[] ").append(local)
                .append(", int offset) {\n        requireArrayRange(\"").append(local).append(" array\", ")
                .append(local).append(".length, offset);\n        long remote = remoteBase(pe);\n");
        dispatch(with, op, put ? Natives.Local.SOURCE_ARRAY : Natives.Local.DEST_ARRAY,
                t -> put ? "remote, " + local + ", offset, length, pe" : local + ", offset, remote, length, pe",
                method, false);
        s.append("    }\n\n");
    }

    private void single() {
        List<CType> pTypes = supporting("p");
        s.append("    /** Puts one element (rocshmem_TYPE_p): PE {@code pe}'s element {@code index} becomes {@code value}. */\n");
        s.append(callsAnnotation(pTypes, "p"));
        s.append("    public void p(int pe, long index, ").append(jt).append(" value) {\n")
                .append("        long remote = remote(pe, index);\n");
        dispatch(pTypes, "p", Natives.Local.NONE, t -> "remote, value, pe", "p", false);
        s.append("    }\n\n");
        List<CType> gTypes = supporting("g");
        s.append("    /** Gets one element (rocshmem_TYPE_g): PE {@code pe}'s element {@code index}. */\n");
        s.append(callsAnnotation(gTypes, "g"));
        s.append("    public ").append(jt).append(" g(int pe, long index) {\n")
                .append("        long remote = remote(pe, index);\n");
        dispatch(gTypes, "g", Natives.Local.NONE, t -> "remote, pe", "g", true);
        s.append("    }\n\n");
    }

    /** Typed single-element access to this PE's own copy, through p/g on this PE (device memory on a GPU). */
    private void localElement() {
        s.append("""
                    /**
                     * Reads element {@code index} of this PE's copy ({@link #g(int, long)} on this PE, so it works on GPU
                     * memory too).
                     */
                    public JT get(long index) {
                        return g(myPe, index);
                    }

                    /** Writes element {@code index} of this PE's copy ({@link #p(int, long, JT)} on this PE). */
                    public void set(long index, JT value) {
                        p(myPe, index, value);
                    }

                    /**
                     * Direct load/store access to PE {@code pe}'s copy of this view (rocshmem_ptr), or empty where
                     * rocSHMEM has no direct path to that PE (another node: use p/g/put/get). For this PE it is
                     * its own copy. Make it once, outside hot loops; its get/set allocate nothing.
                     */
                    @CallsNative("rocshmem_ptr")
                    public java.util.Optional<PEER> peer(int pe) {
                        org.bytedeco.javacpp.Pointer window = peerWindow(pe);
                        if (window == null) {
                            return java.util.Optional.empty();
                        }
                        return java.util.Optional.of(new PEER(this, pe, hostLoadsAndStores()
                                ? new org.bytedeco.javacpp.JPOINTER(window) : null));
                    }

                """.replace("JPOINTER", java.pointerClass()).replace("PEER", java.peerClass()).replace("JT", jt));
    }

    // ---------------------------------------------------------------- waits

    private void waits() {
        List<CType> with = supporting("wait_until");
        if (with.isEmpty()) {
            return;
        }
        s.append("""
                    // ---- point-to-point synchronization on this PE's copy of the view (the ivars of OpenSHMEM).
                    // A status array, where taken, has one entry per element; non-zero entries are left out of the
                    // wait; null includes every element.

                """);
        waitMethod("wait_until", "Blocks until element {@code index} of this PE's copy satisfies"
                + " {@code element cmp value}.", "void", "waitUntil", "long index, Compare cmp, JT value",
                "long ivar = local(index);\n", "ivar, cmp.code, value", null);
        waitMethod("test", "Whether element {@code index} of this PE's copy satisfies {@code element cmp value}"
                + " now (never blocks).", "boolean", "test", "long index, Compare cmp, JT value",
                "long ivar = local(index);\n", "ivar, cmp.code, value", " != 0");
        String status = "requireStatus(status);\n        long ivars = localBase();\n";
        waitMethod("wait_until_all", "Blocks until every included element satisfies {@code element cmp value}.",
                "void", "waitUntilAll", "int[] status, Compare cmp, JT value", status,
                "ivars, length, status, cmp.code, value", null);
        waitMethod("wait_until_any", "Blocks until some included element satisfies {@code element cmp value};"
                + " returns its index, or -1 when every element is excluded.", "long", "waitUntilAny",
                "int[] status, Compare cmp, JT value", status, "ivars, length, status, cmp.code, value", null);
        waitMethod("wait_until_some", "Blocks until at least one included element satisfies {@code element cmp"
                + " value}; writes the indices of all that do into {@code indices} (at least {@link #length()}"
                + " long) and returns how many.", "long", "waitUntilSome",
                "long[] indices, int[] status, Compare cmp, JT value",
                "requireIndices(indices);\n        " + status, "ivars, length, indices, status, cmp.code, value",
                null);
        String vector = "requireStatus(status);\n        requireArrayLength(\"values\", values.length);\n"
                + "        long ivars = localBase();\n";
        waitMethod("wait_until_all_vector", "Blocks until every included element {@code i} satisfies"
                + " {@code element[i] cmp values[i]}.", "void", "waitUntilAllVector",
                "int[] status, Compare cmp, JT[] values", vector, "ivars, length, status, cmp.code, values", null);
        waitMethod("wait_until_any_vector", "Blocks until some included element {@code i} satisfies"
                + " {@code element[i] cmp values[i]}; returns its index, or -1 when every element is excluded.",
                "long", "waitUntilAnyVector", "int[] status, Compare cmp, JT[] values", vector,
                "ivars, length, status, cmp.code, values", null);
        waitMethod("wait_until_some_vector", "Blocks until at least one included element {@code i} satisfies"
                + " {@code element[i] cmp values[i]}; writes the indices of all that do into {@code indices} and"
                + " returns how many.", "long", "waitUntilSomeVector",
                "long[] indices, int[] status, Compare cmp, JT[] values",
                "requireIndices(indices);\n        " + vector, "ivars, length, indices, status, cmp.code, values",
                null);
        s.append("""
                    /**
                     * {@link #waitUntil(long, Compare, JT)} with a deadline, from the host: polls {@link #test} with
                     * backoff (spinning, then yielding, then parking up to 1 ms per poll) and throws
                     * {@link WaitTimeoutException}, naming the index and the element's last value, when {@code timeout}
                     * passes before the condition holds.
                     */
                    public void waitUntil(long index, Compare cmp, JT value, java.time.Duration timeout) {
                        long deadline = Backoff.deadline(timeout);
                        for (int polls = 0; !test(index, cmp, value); polls++) {
                            if (Backoff.expired(deadline)) {
                                throw Backoff.timeout(this, index, cmp, value, get(index), timeout);
                            }
                            Backoff.pause(polls);
                        }
                    }

                    /** {@link #waitUntilAll(int[], Compare, JT)} over every element of the view. */
                    public void waitUntilAll(Compare cmp, JT value) {
                        waitUntilAll(null, cmp, value);
                    }

                    /** {@link #waitUntilAny(int[], Compare, JT)} over every element of the view. */
                    public long waitUntilAny(Compare cmp, JT value) {
                        return waitUntilAny(null, cmp, value);
                    }

                    /** Convenience form of {@link #waitUntilSome}: the indices of the satisfied elements, as a new array. */
                    public long[] waitUntilSome(Compare cmp, JT value) {
                        long[] indices = new long[(int) Math.min(length, Integer.MAX_VALUE - 8)];
                        long n = waitUntilSome(indices, null, cmp, value);
                        return java.util.Arrays.copyOf(indices, (int) n);
                    }

                    private void requireStatus(int[] status) {
                        if (status != null) {
                            requireArrayLength("status", status.length);
                        }
                    }

                    private void requireIndices(long[] indices) {
                        if (indices.length < length) {
                            throw new IllegalArgumentException("indices holds " + indices.length
                                    + " entries but the view has " + length + " elements: " + this);
                        }
                    }

                """.replace("JT", jt));
    }

    private void waitMethod(String op, String doc, String ret, String method, String params, String prelude,
                            String args, String resultSuffix) {
        List<CType> with = supporting(op);
        s.append("    /** ").append(doc).append(" (rocshmem_TYPE_").append(op).append(") */\n");
        s.append(callsAnnotation(with, op));
        s.append("    public ").append(ret).append(" ").append(method).append("(").append(params.replace("JT", jt))
                .append(") {\n        ").append(prelude);
        if (resultSuffix == null) {
            dispatch(with, op, Natives.Local.NONE, t -> args, method, !ret.equals("void"), false);
        } else {
            s.append("        int satisfied;\n");
            dispatchInto(with, op, args, method, "satisfied");
            s.append("        return satisfied").append(resultSuffix).append(";\n");
        }
        s.append("    }\n\n");
    }

    // ---------------------------------------------------------------- dispatch on the C type

    /** The view's C types for which some host function serves {@code op} (see {@link Manifest#route}). */
}
