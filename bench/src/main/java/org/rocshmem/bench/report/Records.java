package org.rocshmem.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The records PE 0 wrote ({@code BenchMain}): per round, benchmark label and variant. */
final class Records {
    /** One measurement iteration: JMH's ns per operation, and the benchmark thread's counts in it. */
    record Iteration(double nsPerOp, long bytes, long operations, long cpuNanos) {
    }

    /**
     * One measured trial: its round, JMH's score (the mean over iterations) and the iterations. Its time per
     * operation is the median over its iterations, which an iteration spent waiting for a CPU does not move.
     */
    record Sample(int round, double jmhScore, List<Iteration> iterations) {
        double nsPerOp() {
            if (iterations.isEmpty()) {
                return jmhScore;
            }
            List<Double> v = new ArrayList<>();
            iterations.forEach(it -> v.add(it.nsPerOp()));
            return Stats.of(v).median();
        }

        /** Median over iterations of CPU ns per operation; NaN without counts. */
        double cpuPerOp() {
            List<Double> v = new ArrayList<>();
            iterations.stream().filter(it -> it.operations() > 0)
                    .forEach(it -> v.add((double) it.cpuNanos() / it.operations()));
            return Stats.of(v).median();
        }
    }

    /** One steady-state batch: the calls made by its end and the time per call within it. */
    record Batch(long calls, double nsPerCall) {
    }

    /** label -> variant -> samples, in the order first seen (JMH's order). */
    final Map<String, Map<String, List<Sample>>> rows = new LinkedHashMap<>();
    int rounds;

    static Records read(Path file) throws IOException {
        Records records = new Records();
        List<String> lines = Files.readAllLines(file);
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t");
            if (f.length != 5) {
                throw new IOException(file + ": expected 5 tab-separated fields, got: " + line);
            }
            int round = Integer.parseInt(f[0]);
            records.rounds = Math.max(records.rounds, round + 1);
            List<Iteration> iterations = new ArrayList<>();
            if (!f[4].equals("-")) {
                for (String text : f[4].split(";")) {
                    String[] p = text.split("/");
                    iterations.add(new Iteration(Double.parseDouble(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2]),
                            Long.parseLong(p[3])));
                }
            }
            records.rows.computeIfAbsent(f[1], k -> new LinkedHashMap<>())
                    .computeIfAbsent(f[2], k -> new ArrayList<>())
                    .add(new Sample(round, Double.parseDouble(f[3]), iterations));
        }
        return records;
    }

    List<Sample> samples(String label, String variant) {
        return rows.getOrDefault(label, Map.of()).getOrDefault(variant, List.of());
    }

    /** benchmark -> batches in order. */
    static Map<String, List<Batch>> readSteadyState(Path file) throws IOException {
        Map<String, List<Batch>> curves = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(file);
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t");
            curves.computeIfAbsent(f[0], k -> new ArrayList<>())
                    .add(new Batch(Long.parseLong(f[2]), Double.parseDouble(f[3])));
        }
        return curves;
    }
}
