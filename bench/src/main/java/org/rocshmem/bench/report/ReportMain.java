package org.rocshmem.bench.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes the markdown report of a {@code bench/run.sh} run from the files it collected:
 *
 * <pre>
 * ReportMain --work DIR --out FILE --commit TEXT --date TEXT --load-start TEXT --load-end TEXT [--smoke]
 * </pre>
 *
 * <p>DIR holds {@code rounds.tsv} and {@code steady*.tsv} (written by PE 0 of {@code BenchMain}) and
 * {@code emu-Npe.txt} (output of the C driver at N PEs). With {@code --smoke} it also checks that every benchmark
 * produced a result and that the typed hot paths allocate nothing, and exits 1 naming what is missing; timings are
 * never judged there.
 */
public final class ReportMain {
    private ReportMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new TreeMap<>();
        boolean smoke = false;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--smoke")) {
                smoke = true;
            } else if (args[i].startsWith("--") && i + 1 < args.length) {
                options.put(args[i], args[++i]);
            } else {
                System.err.println("usage: ReportMain --work DIR --out FILE --commit TEXT --date TEXT --load-start TEXT"
                        + " --load-end TEXT [--smoke]");
                System.exit(2);
            }
        }
        Path work = Path.of(options.getOrDefault("--work", "bench/target/bench-run"));
        Path out = Path.of(options.getOrDefault("--out", work.resolve("emu-2pe.md").toString()));
        Records records = Records.read(work.resolve("rounds.tsv"));
        Map<String, List<Records.Batch>> steady = new java.util.LinkedHashMap<>();
        try (var files = Files.newDirectoryStream(work, "steady*.tsv")) {
            for (Path file : files) {
                steady.putAll(Records.readSteadyState(file));
            }
        }
        Map<Integer, Ceiling> ceilings = new TreeMap<>();
        for (int pes : new int[] {2, 4, 8}) {
            Path file = work.resolve("emu-" + pes + "pe.txt");
            if (Files.exists(file)) {
                ceilings.put(pes, Ceiling.read(file));
            }
        }
        RunInfo info = new RunInfo(options.getOrDefault("--date", "?"), options.getOrDefault("--commit", "?"),
                options.getOrDefault("--load-start", "?"), options.getOrDefault("--load-end", "?"), smoke);
        RunStats stats = new RunStats(records);
        Machine machine = Machine.describe();
        List<Targets.Verdict> verdicts = new Targets(stats, steady, machine, info).verdicts();
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, new MarkdownReport(stats, steady, ceilings, machine, info, verdicts).markdown());
        System.out.println("ReportMain: wrote " + out);
        for (Targets.Verdict v : verdicts) {
            System.out.printf("  %-17s %s: %s%n", v.metText().replace("*", ""), v.target(), v.result());
        }
        if (smoke) {
            List<String> problems = SmokeCheck.problems(stats, steady, ceilings);
            if (!problems.isEmpty()) {
                System.err.println("bench smoke: FAILED");
                problems.forEach(p -> System.err.println("  " + p));
                System.exit(1);
            }
            System.out.println("bench smoke: every benchmark ran; the typed hot paths allocate 0 B/op");
        }
    }
}
