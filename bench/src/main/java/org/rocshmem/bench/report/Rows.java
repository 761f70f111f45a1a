package org.rocshmem.bench.report;

import java.util.ArrayList;
import java.util.List;

/** The rows of the report: benchmark labels as BenchMain records them, their groups and their display names. */
final class Rows {
    static final List<String> SMALL = List.of("p", "g", "putmem_8B", "getmem_8B", "putmem_nbi_8B", "wait_until", "test",
            "quiet", "fence");
    static final List<String> PUTS = List.of("putmem_64KiB", "putmem_1MiB", "putmem_16MiB");
    static final List<String> GETS = List.of("getmem_64KiB", "getmem_1MiB", "getmem_16MiB");
    /** Typed put/get of longs with a Java array as the local side; each label runs as every one of FORMS. */
    static final List<String> ARRAYS = List.of("put_longs_64KiB", "put_longs_1MiB", "put_longs_16MiB",
            "get_longs_64KiB", "get_longs_1MiB", "get_longs_16MiB");
    /** view16: the view form with its local side where a long[]'s elements start, 16 bytes past the alignment. */
    static final List<String> FORMS = List.of("view", "array", "view16");
    /** Stream-ordered put of a symmetric PyTorch tensor; each label runs as every one of TENSOR_FORMS. */
    static final List<String> TENSORS = List.of("put_tensor_1MiB", "put_tensor_16MiB");
    static final List<String> TENSOR_FORMS = List.of("view", "tensor");
    static final List<String> COLLECTIVES = List.of("barrier_all", "team_sync", "sum_reduce", "broadcast");
    static final String STREAM = "putmem_on_stream_8B";
    /** 100 launches of a one-work-item kernel, then one hipStreamSynchronize (KernelBenchmarks). */
    static final String KERNEL = "kernel_launch";
    /** The same launches; the typed variant with a KernelArguments set once instead of varargs. */
    static final String KERNEL_ARGS = "kernel_launch_args";
    /** The empty single-shot benchmark: what JMH's single-shot harness allocates per iteration. */
    static final String HARNESS = "harness";
    static final List<String> JNI = List.of("jni_empty", "jni_address_args", "jni_pointer_args");
    static final List<String> ATOMIC_OPS = List.of("fetch", "set", "swap", "compare_swap", "inc", "fetch_inc", "add",
            "fetch_add", "and", "fetch_and", "or", "fetch_or", "xor", "fetch_xor");
    static final List<String> VARIANTS = List.of("c", "raw", "typed");
    /** The variant of rows that have none (JNI probes, harness). */
    static final String NONE = "-";

    private Rows() {
    }

    static List<String> atomics() {
        List<String> labels = new ArrayList<>();
        for (String type : List.of("int64", "int32")) {
            for (String op : ATOMIC_OPS) {
                labels.add("atomic " + op + " " + type);
            }
        }
        return labels;
    }

    /** The rows of the small-op targets: single calls that move at most 8 bytes. */
    static List<String> smallOps() {
        List<String> rows = new ArrayList<>(SMALL);
        rows.addAll(atomics());
        return rows;
    }

    /** Rows whose typed path the 0 B/op target covers: every transfer, atomic, wait, ordering and stream call. */
    static List<String> hotPaths() {
        List<String> rows = smallOps();
        rows.addAll(PUTS);
        rows.addAll(GETS);
        rows.add(STREAM);
        rows.add(KERNEL_ARGS);
        return rows;
    }

    /** Every label and variant a complete run has. */
    static List<String[]> expected() {
        List<String[]> rows = new ArrayList<>();
        List<String> labels = hotPaths();
        labels.addAll(COLLECTIVES);
        labels.add(KERNEL);
        for (String label : labels) {
            for (String v : VARIANTS) {
                rows.add(new String[] {label, v});
            }
        }
        for (String label : JNI) {
            rows.add(new String[] {label, NONE});
        }
        for (String label : ARRAYS) {
            for (String form : FORMS) {
                rows.add(new String[] {label + " " + form, NONE});
            }
        }
        for (String label : TENSORS) {
            for (String form : TENSOR_FORMS) {
                rows.add(new String[] {label + " " + form, NONE});
            }
        }
        rows.add(new String[] {HARNESS, NONE});
        return rows;
    }

    static double bytesOf(String label) {
        if (label.endsWith("_64KiB")) {
            return 64 << 10;
        }
        if (label.endsWith("_1MiB")) {
            return 1 << 20;
        }
        if (label.endsWith("_16MiB")) {
            return 16 << 20;
        }
        return 8;
    }

    static String display(String label) {
        if (label.startsWith("atomic ")) {
            String[] f = label.split(" ");
            return f[2] + " " + f[1];
        }
        return switch (label) {
            case "putmem_8B" -> "putmem 8 B";
            case "getmem_8B" -> "getmem 8 B";
            case "putmem_nbi_8B" -> "putmem_nbi 8 B (+ quiet per 1000)";
            case "p" -> "int64 p";
            case "g" -> "int64 g";
            case "wait_until" -> "long wait_until (satisfied)";
            case "test" -> "long test";
            case "team_sync" -> "team_sync (world)";
            case "sum_reduce" -> "long sum_reduce, 1 element";
            case "broadcast" -> "long broadcast, 1 element";
            case "putmem_on_stream_8B" -> "putmem_on_stream 8 B";
            case "kernel_launch" -> "kernel_launch (typed: varargs)";
            case "kernel_launch_args" -> "kernel_launch_args (typed: KernelArguments)";
            default -> label.replace("_64KiB", " 64 KiB").replace("_1MiB", " 1 MiB").replace("_16MiB", " 16 MiB");
        };
    }
}
