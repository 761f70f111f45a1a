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
    /**
     * One measured trial: its round, JMH's time per operation, and per measurement iteration {allocated bytes,
     * operations, CPU ns of the benchmark thread}.
     */
    record Sample(int round, double nsPerOp, List<long[]> iterations) {
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
            List<long[]> iterations = new ArrayList<>();
            if (!f[4].equals("-")) {
                for (String pair : f[4].split(";")) {
                    String[] p = pair.split("/");
                    iterations.add(new long[] {Long.parseLong(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2])});
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
