package org.rocshmem.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * What the benchmark threads count beside JMH's timings: for every measurement iteration, the bytes the benchmark
 * thread allocated, the operations it made and the CPU time it used, per benchmark and parameter set. JMH runs in
 * this JVM (forks(0)), so {@link BenchMain} reads them after each run.
 */
public final class Measurements {
    /** key -> one {allocated bytes, operations, CPU ns} triple per measurement iteration. */
    private static final Map<String, List<long[]>> ALLOCATION = new ConcurrentHashMap<>();
    /** key -> form -> one {wall ns, allocated bytes, operations, CPU ns} per measurement iteration ({@link Split}). */
    private static final Map<String, Map<String, List<long[]>>> SPLITS = new ConcurrentHashMap<>();

    private Measurements() {
    }

    /** Benchmark method name plus its parameters in name order: the same for a running trial and its result. */
    public static String key(BenchmarkParams params) {
        Map<String, String> sorted = new TreeMap<>();
        for (String name : params.getParamsKeys()) {
            sorted.put(name, params.getParam(name));
        }
        return params.getBenchmark() + sorted;
    }

    static void addIteration(String key, long bytes, long operations, long cpuNanos) {
        ALLOCATION.computeIfAbsent(key, k -> new ArrayList<>()).add(new long[] {bytes, operations, cpuNanos});
    }

    static void addSplit(String key, String form, long wallNanos, long bytes, long operations, long cpuNanos) {
        SPLITS.computeIfAbsent(key, k -> new java.util.LinkedHashMap<>())
                .computeIfAbsent(form, k -> new ArrayList<>()).add(new long[] {wallNanos, bytes, operations, cpuNanos});
    }

    /** The forms {@code key} timed side by side ({@link Split}), in the order first recorded; empty for other trials. */
    public static List<String> splitForms(String key) {
        return List.copyOf(SPLITS.getOrDefault(key, Map.of()).keySet());
    }

    /** Mean wall ns per operation of one form over its measurement iterations. */
    public static double splitScore(String key, String form) {
        long nanos = 0;
        long operations = 0;
        for (long[] it : SPLITS.get(key).get(form)) {
            nanos += it[0];
            operations += it[2];
        }
        return (double) nanos / operations;
    }

    /** The measurement iterations of one form, in the format of {@link #iterations}. */
    public static String splitIterations(String key, String form) {
        StringBuilder text = new StringBuilder();
        for (long[] it : SPLITS.get(key).get(form)) {
            text.append(text.length() == 0 ? "" : ";").append((double) it[0] / it[2]).append('/').append(it[1])
                    .append('/').append(it[2]).append('/').append(it[3]);
        }
        return text.toString();
    }

    /**
     * The measurement iterations of {@code key} as "score/bytes/operations/cpu-ns" separated by ';', where the
     * scores are JMH's per-iteration results in the same order ("-" when the counts do not line up).
     */
    public static String iterations(String key, List<Double> scores) {
        List<long[]> list = ALLOCATION.get(key);
        if (list == null || list.isEmpty() || list.size() != scores.size()) {
            return "-";
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < list.size(); i++) {
            long[] it = list.get(i);
            text.append(i == 0 ? "" : ";").append(scores.get(i)).append('/').append(it[0]).append('/').append(it[1])
                    .append('/').append(it[2]);
        }
        return text.toString();
    }

    public static void clear() {
        ALLOCATION.clear();
        SPLITS.clear();
    }
}
