package org.rocshmem.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's arithmetic on synthetic records: where a curve settles, how targets are judged, what smoke flags. */
class ReportTest {
    @TempDir
    Path dir;

    @Test
    void steadyStateStartsAfterTheSlowBatchesAndIgnoresALateSpike() {
        List<Records.Batch> curve = new ArrayList<>();
        double[] start = {1000, 200, 80};
        for (double ns : start) {
            curve.add(new Records.Batch((curve.size() + 1) * 500L, ns));
        }
        for (int i = 0; i < 20; i++) { // profiled code, twice the final cost
            curve.add(new Records.Batch((curve.size() + 1) * 500L, 40));
        }
        for (int i = 0; i < 100; i++) { // compiled; one preempted batch on the way
            curve.add(new Records.Batch((curve.size() + 1) * 500L, curve.size() == 80 ? 500 : 20));
        }
        Report.Settling s = Report.settle(curve);
        assertEquals(20, s.finalNs(), 1e-9);
        assertEquals(1000, s.firstNs(), 1e-9);
        assertEquals(23 * 500, s.callsToSteady(), "3 slow batches and 20 profiled ones come before the steady state");
    }

    @Test
    void smallOpTargetIsJudgedOnWallClockThenOnCpuTime() throws IOException {
        // typed = C + 30 ns on the wall clock but + 9 ns of CPU time; raw = C + 20 ns of CPU time
        Report report = report((label, variant) -> switch (variant) {
            case "typed" -> new double[] {80, 19};
            case "raw" -> new double[] {70, 30};
            default -> new double[] {50, 10};
        }, 0);
        Map<String, Report.Verdict> verdicts = byTarget(report);
        assertEquals(Report.Met.CPU_TIME_ONLY, verdicts.get("typed small ops ≤ C-in-JVM + 15 ns").met());
        assertEquals(Report.Met.NO, verdicts.get("raw binding ≤ C-in-JVM + 12 ns").met());
        assertTrue(verdicts.get("raw binding ≤ C-in-JVM + 12 ns").why().contains("+20.0 ns on CPU time"),
                verdicts.get("raw binding ≤ C-in-JVM + 12 ns").why());
        assertEquals(Report.Met.YES, verdicts.get("0 B/op for every typed hot path after warm-up").met());
    }

    @Test
    void withinMarginsEverythingIsMetAndSmokeFindsNothing() throws IOException {
        Report report = report((label, variant) -> variant.equals("c") ? new double[] {50, 10}
                : new double[] {55, 15}, 0);
        Map<String, Report.Verdict> verdicts = byTarget(report);
        assertEquals(Report.Met.YES, verdicts.get("typed small ops ≤ C-in-JVM + 15 ns").met());
        assertEquals(Report.Met.YES, verdicts.get("raw binding ≤ C-in-JVM + 12 ns").met());
        assertEquals(Report.Met.YES, verdicts.get("barrier_all ≤ C-in-JVM + 20 ns").met());
        assertEquals(List.of(), report.smokeProblems());
        assertTrue(report.markdown().contains("| int64 fetch_add |"), "the atomic matrix has a row per op and type");
    }

    @Test
    void smokeFlagsAnAllocatingTypedPathAndAMissingBenchmark() throws IOException {
        Report report = report((label, variant) -> new double[] {50, 10}, 24);
        List<String> problems = report.smokeProblems();
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("typed p allocates 24.000 B/op")), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.equals("no result for g (raw)")), problems.toString());
        assertEquals(Report.Met.NO, byTarget(report).get("0 B/op for every typed hot path after warm-up").met());
    }

    /** Records for every expected row; with allocation, typed p allocates and "g raw" is missing (a failing smoke). */
    private Report report(TimesOf times, long typedBytesPerOp) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("round\tlabel\tvariant\tns_per_op\titerations");
        for (int round = 0; round < 3; round++) {
            for (String[] row : Report.expectedRows()) {
                if (typedBytesPerOp > 0 && row[0].equals("g") && row[1].equals("raw")) {
                    continue;
                }
                double[] t = times.of(row[0], row[1]);
                long ops = 1000;
                long bytes = row[1].equals("typed") && row[0].equals("p") ? typedBytesPerOp * ops : 0;
                String iteration = bytes + "/" + ops + "/" + (long) (t[1] * ops);
                lines.add(round + "\t" + row[0] + "\t" + row[1] + "\t" + t[0] + "\t" + iteration + ";" + iteration);
            }
        }
        Path rounds = dir.resolve("rounds.tsv");
        Files.write(rounds, lines);
        List<String> steady = new ArrayList<>(List.of("benchmark\titeration\tcalls\tns_per_call"));
        for (String name : Report.STEADY) {
            for (int i = 1; i <= 40; i++) {
                steady.add(name + "\t" + i + "\t" + i * 500 + "\t" + (i < 3 ? 500 : 20));
            }
        }
        Files.write(dir.resolve("steady.tsv"), steady);
        Path emu = dir.resolve("emu-2pe.txt");
        Files.write(emu, List.of("[PE 0] RESULT put_bw size=1048576 put_gbps=10.0 memcpy_gbps=11.0 ratio=0.909",
                "[PE 0] RESULT barrier_all_latency pes=2 iters=100 median_us=0.3 p99_us=1.0"));
        return new Report(Records.read(rounds), Records.readSteadyState(dir.resolve("steady.tsv")),
                Map.of(2, Ceiling.read(emu)), Machine.describe(), new Report.RunInfo("d", "c", "0.1", "0.2", false));
    }

    private static Map<String, Report.Verdict> byTarget(Report report) {
        Map<String, Report.Verdict> map = new java.util.HashMap<>();
        report.verdicts().forEach(v -> map.put(v.target(), v));
        return map;
    }

    @FunctionalInterface
    interface TimesOf {
        /** {wall-clock ns per call, CPU ns per call} of a row. */
        double[] of(String label, String variant);
    }
}
