package org.rocshmem.bench.report;

import java.util.ArrayList;
import java.util.List;

/** Where a warm-up curve (ns per call in batches, from the first call) settles. */
final class SteadyState {
    static final int BATCH = org.rocshmem.bench.BenchMain.STEADY_BATCH;
    static final int WINDOW = 9;
    /** Steady means staying near the final level for this many calls. */
    static final int HOLD_CALLS = 20_000;
    static final String EMPTY_NATIVE = "empty_native";
    static final List<String> CURVES = List.of(org.rocshmem.bench.BenchMain.STEADY_CURVES);
    static final String FOREGROUND_JIT = org.rocshmem.bench.BenchMain.FOREGROUND_JIT;
    /** The same curves measured with -Xbatch (compilation in the foreground). */
    static final List<String> FOREGROUND_CURVES = java.util.Arrays.stream(org.rocshmem.bench.BenchMain.FOREGROUND_CURVES)
            .map(name -> name + FOREGROUND_JIT).toList();

    private SteadyState() {
    }

    /**
     * First batch, final level, the calls made before the curve settled (all of them if it never did, then
     * {@code settled} is false), and how far from the final level counts as settled.
     */
    record Settling(double firstNs, double finalNs, long callsToSteady, boolean settled, double tolerance) {
        boolean near(double ns) {
            return Math.abs(ns - finalNs) <= tolerance;
        }
    }

    /**
     * Final level: the median of the last quarter. Steady from the first batch that is itself within
     * max(25% of the final level, 5 ns) of it and after which a rolling median over {@link #WINDOW} batches stays
     * that close for {@link #HOLD_CALLS} calls (the median lets single slow batches, e.g. a preempted one, pass).
     * Both sides count: a difference curve (a path minus the harness) can start below its final level.
     */
    static Settling settle(List<Records.Batch> batches) {
        int n = batches.size();
        List<Double> tail = new ArrayList<>();
        for (int i = n - Math.max(1, n / 4); i < n; i++) {
            tail.add(batches.get(i).nsPerCall());
        }
        double finalNs = Stats.of(tail).median();
        double tolerance = Math.max(0.25 * Math.abs(finalNs), 5);
        int window = Math.min(WINDOW, n);
        double[] windowMedian = new double[n - window + 1];
        for (int j = 0; j < windowMedian.length; j++) {
            List<Double> w = new ArrayList<>();
            for (int i = j; i < j + window; i++) {
                w.add(batches.get(i).nsPerCall());
            }
            windowMedian[j] = Stats.of(w).median();
        }
        int hold = Math.max(1, HOLD_CALLS / BATCH);
        for (int i = 0; i + hold <= windowMedian.length; i++) { // the whole hold must have been measured
            if (Math.abs(batches.get(i).nsPerCall() - finalNs) > tolerance) {
                continue;
            }
            boolean holds = true;
            for (int j = i; j < i + hold && holds; j++) {
                holds = Math.abs(windowMedian[j] - finalNs) <= tolerance;
            }
            if (holds) {
                long before = i == 0 ? 0 : batches.get(i - 1).calls();
                return new Settling(batches.get(0).nsPerCall(), finalNs, before, true, tolerance);
            }
        }
        return new Settling(batches.get(0).nsPerCall(), finalNs, batches.get(n - 1).calls(), false, tolerance);
    }

    /** a − b batch by batch (the same call counts): a path's own cost over the harness. */
    static List<Records.Batch> minus(List<Records.Batch> a, List<Records.Batch> b) {
        List<Records.Batch> d = new ArrayList<>();
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            d.add(new Records.Batch(a.get(i).calls(), a.get(i).nsPerCall() - b.get(i).nsPerCall()));
        }
        return d;
    }
}
