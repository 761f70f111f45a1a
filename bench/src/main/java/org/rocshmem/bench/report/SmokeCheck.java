package org.rocshmem.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a smoke run ({@code bench/run.sh --smoke}) must show: every benchmark produced a result, the typed hot paths
 * allocate nothing, the steady-state curves and the C driver produced output. Timings are never judged.
 */
final class SmokeCheck {
    private SmokeCheck() {
    }

    static List<String> problems(RunStats stats, Map<String, List<Records.Batch>> steady,
                                 Map<Integer, Ceiling> ceilings) {
        List<String> problems = new ArrayList<>();
        for (String[] row : Rows.expected()) {
            Stats t = stats.time(row[0], row[1]);
            if (t.isEmpty() || !(t.median() > 0)) {
                problems.add("no result for " + row[0] + " (" + row[1] + ")");
            }
        }
        for (String label : Rows.hotPaths()) {
            if (stats.allocation(label, "typed").isEmpty()) {
                problems.add("no allocation measured for typed " + label);
            } else if (!stats.allocationFree(label, "typed")) {
                problems.add(String.format("typed %s allocates %.3f B/op (median over iterations)", label,
                        stats.allocation(label, "typed").median()));
            }
        }
        for (String label : Rows.TENSORS) {
            if (!stats.allocationFree(label + " tensor", Rows.NONE)) {
                problems.add(String.format("tensor put %s allocates %.3f B/op (median over iterations)", label,
                        stats.allocation(label + " tensor", Rows.NONE).median()));
            }
        }
        List<String> curves = new java.util.ArrayList<>(SteadyState.CURVES);
        curves.addAll(SteadyState.FOREGROUND_CURVES);
        for (String name : curves) {
            if (steady.getOrDefault(name, List.of()).isEmpty()) {
                problems.add("no steady-state curve for " + name);
            }
        }
        Ceiling two = ceilings.get(2);
        if (two == null || two.get("put_bw").isEmpty() || two.get("barrier_all_latency").isEmpty()) {
            problems.add("no results from the C driver at 2 PEs");
        }
        return problems;
    }
}
