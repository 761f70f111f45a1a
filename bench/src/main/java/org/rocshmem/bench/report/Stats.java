package org.rocshmem.bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Median and range of a few numbers (rounds, iterations). */
record Stats(double median, double min, double max, int count) {

    static Stats of(List<Double> values) {
        if (values.isEmpty()) {
            return new Stats(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Stats(median, sorted.get(0), sorted.get(n - 1), n);
    }

    static String fmt(double v, int decimals) {
        return Double.isNaN(v) ? "—" : String.format("%." + decimals + "f", v);
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** "12.3 [11.9–13.0]" with the given number of decimals. */
    String format(int decimals) {
        if (isEmpty()) {
            return "—";
        }
        String f = "%." + decimals + "f";
        return String.format(f, median) + " [" + String.format(f, min) + "–" + String.format(f, max) + "]";
    }
}
