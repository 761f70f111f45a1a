package org.rocshmem.bench.report;

import java.util.ArrayList;
import java.util.List;

/** Where a warm-up curve (ns per call in batches, from the first call) settles. */
final class SteadyState {
    static final int BATCH = org.rocshmem.bench.BenchMain.STEADY_BATCH;
    static final int WINDOW = 9;
    static final String EMPTY_NATIVE = "empty_native";
    /** The curves, in the order BenchMain runs them: typed p first, while the JVM has not called it. */
    static final List<String> CURVES = List.of("typed_p", EMPTY_NATIVE, "typed_putmem_8B", "raw_p");

    private SteadyState() {
    }

    /** First batch, final level, the calls made before the curve stays near that level, and that bound. */
    record Settling(double firstNs, double finalNs, long callsToSteady, double threshold) {
    }

    /**
     * Final level: the median of the last quarter. Steady from the first batch after which a rolling median over
     * {@link #WINDOW} batches stays within max(1.25× final, final + 5 ns), moved on to a batch that is itself that
     * fast (the median hides a short slow start).
     */
    static Settling settle(List<Records.Batch> batches) {
        int n = batches.size();
        List<Double> tail = new ArrayList<>();
        for (int i = n - Math.max(1, n / 4); i < n; i++) {
            tail.add(batches.get(i).nsPerCall());
        }
        double finalNs = Stats.of(tail).median();
        double threshold = Math.max(1.25 * finalNs, finalNs + 5);
        int window = Math.min(WINDOW, n);
        int steadyFrom = 0;
        for (int j = 0; j + window <= n; j++) {
            List<Double> w = new ArrayList<>();
            for (int i = j; i < j + window; i++) {
                w.add(batches.get(i).nsPerCall());
            }
            if (Stats.of(w).median() > threshold) {
                steadyFrom = j + 1; // not settled in this window yet
            }
        }
        while (steadyFrom < n - 1 && batches.get(steadyFrom).nsPerCall() > threshold) {
            steadyFrom++;
        }
        long callsBefore = steadyFrom == 0 ? 0 : batches.get(steadyFrom - 1).calls();
        return new Settling(batches.get(0).nsPerCall(), finalNs, callsBefore, threshold);
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
