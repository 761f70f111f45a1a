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
    }
}
