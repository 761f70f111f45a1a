package org.rocshmem.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleBinaryOperator;

/**
 * Statistics of one row and variant over the rounds of a run: time per call, the per-round difference or ratio to
 * the C loop (on the wall clock and on the benchmark thread's CPU time), and bytes allocated per call.
 */
final class RunStats {
    /** Below this a row counts as allocation-free: an allocation in the path would cost at least 16 B per call. */
    static final double ZERO_BYTES_PER_OP = 0.01;

    private final Records records;
    private final double harnessBytesPerIteration;

    RunStats(Records records) {
        this.records = records;
        List<Double> harness = new ArrayList<>();
        for (Records.Sample s : records.samples(Rows.HARNESS, Rows.NONE)) {
            for (Records.Iteration it : s.iterations()) {
                harness.add((double) it.bytes());
            }
        }
        this.harnessBytesPerIteration = harness.isEmpty() ? 0 : Stats.of(harness).median();
    }

    int rounds() {
        return records.rounds;
    }

    /** What JMH's single-shot harness allocates inside the metered window of one iteration. */
    double harnessBytesPerIteration() {
        return harnessBytesPerIteration;
    }

    /** Wall-clock ns per call: per round the median over its measurement iterations. */
    Stats time(String label, String variant) {
        List<Double> v = new ArrayList<>();
        records.samples(label, variant).forEach(s -> v.add(s.nsPerOp()));
        return Stats.of(v);
    }

    /** variant minus C, paired by round. */
    Stats diff(String label, String variant) {
        return paired(label, variant, (c, x) -> x - c);
    }

    /** C time over variant time, paired by round: the variant's bandwidth as a fraction of C's. */
    Stats ratio(String label, String variant) {
        return paired(label, variant, (c, x) -> c / x);
    }

    /** The benchmark thread's CPU time per call (leaves out the time a PE waited for a CPU). */
    Stats cpu(String label, String variant) {
        return Stats.of(new ArrayList<>(cpuPerRound(label, variant).values()));
    }

    /** variant minus C in CPU time per call, paired by round. */
    Stats cpuDiff(String label, String variant) {
        return cpuPaired(label, variant, (c, x) -> x - c);
    }

    /** C over variant in CPU time per call, paired by round. */
    Stats cpuRatio(String label, String variant) {
        return cpuPaired(label, variant, (c, x) -> c / x);
    }

    /** Bytes per call over the measurement iterations of every round (single-shot harness subtracted). */
    Stats allocation(String label, String variant) {
        boolean singleShot = Rows.COLLECTIVES.contains(label);
        List<Double> perOp = new ArrayList<>();
        for (Records.Sample s : records.samples(label, variant)) {
            for (Records.Iteration it : s.iterations()) {
                if (it.operations() > 0) {
                    double bytes = it.bytes() - (singleShot ? harnessBytesPerIteration : 0);
                    perOp.add(Math.max(0, bytes) / it.operations());
                }
            }
        }
        return Stats.of(perOp);
    }

    boolean allocationFree(String label, String variant) {
        Stats a = allocation(label, variant);
        return !a.isEmpty() && a.median() < ZERO_BYTES_PER_OP;
    }

    private Stats paired(String label, String variant, DoubleBinaryOperator f) {
        Map<Integer, Double> c = new TreeMap<>();
        records.samples(label, "c").forEach(s -> c.put(s.round(), s.nsPerOp()));
        List<Double> values = new ArrayList<>();
        for (Records.Sample x : records.samples(label, variant)) {
            if (c.containsKey(x.round())) {
                values.add(f.applyAsDouble(c.get(x.round()), x.nsPerOp()));
            }
        }
        return Stats.of(values);
    }

    private Stats cpuPaired(String label, String variant, DoubleBinaryOperator f) {
        Map<Integer, Double> c = cpuPerRound(label, "c");
        List<Double> values = new ArrayList<>();
        cpuPerRound(label, variant).forEach((round, x) -> {
            if (c.containsKey(round)) {
                values.add(f.applyAsDouble(c.get(round), x));
            }
        });
        return Stats.of(values);
    }

    /**
     * Per measurement iteration, {@code reference}'s time per operation over {@code label}'s in the same round and
     * iteration: for forms timed side by side ({@code Split}), whose iterations ran interleaved.
     */
    Stats iterationRatio(String reference, String label, boolean cpu) {
        List<Double> values = new ArrayList<>();
        for (Records.Sample row : records.samples(label, Rows.NONE)) {
            for (Records.Sample ref : records.samples(reference, Rows.NONE)) {
                if (ref.round() != row.round()) {
                    continue;
                }
                int n = Math.min(ref.iterations().size(), row.iterations().size());
                for (int i = 0; i < n; i++) {
                    Records.Iteration a = ref.iterations().get(i);
                    Records.Iteration b = row.iterations().get(i);
                    if (cpu) {
                        if (a.operations() > 0 && b.operations() > 0 && b.cpuNanos() > 0) {
                            values.add(((double) a.cpuNanos() / a.operations()) / ((double) b.cpuNanos() / b.operations()));
                        }
                    } else {
                        values.add(a.nsPerOp() / b.nsPerOp());
                    }
                }
            }
        }
        return Stats.of(values);
    }

    private Map<Integer, Double> cpuPerRound(String label, String variant) {
        Map<Integer, Double> perRound = new TreeMap<>();
        for (Records.Sample s : records.samples(label, variant)) {
            double cpu = s.cpuPerOp();
            if (!Double.isNaN(cpu)) {
                perRound.put(s.round(), cpu);
            }
        }
        return perRound;
    }
}
