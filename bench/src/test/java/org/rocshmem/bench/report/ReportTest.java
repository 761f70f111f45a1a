package org.rocshmem.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        SteadyState.Settling s = SteadyState.settle(curve);
        assertEquals(20, s.finalNs(), 1e-9);
        assertEquals(1000, s.firstNs(), 1e-9);
        assertEquals(23 * 500, s.callsToSteady(), "3 slow batches and 20 profiled ones come before the steady state");
    }

    @Test
    void aLateSlowPatchDoesNotMoveTheSteadyPointAndANeverSettlingCurveSaysSo() {
        List<Records.Batch> curve = new ArrayList<>();
        for (int i = 1; i <= 200; i++) { // steady from batch 11 on; 12 slow batches (6,000 calls) at 90k calls
            double ns = i <= 10 ? 100 : i > 180 && i <= 192 ? 90 : 20;
            curve.add(new Records.Batch(i * 500L, ns));
        }
        SteadyState.Settling s = SteadyState.settle(curve);
        assertTrue(s.settled());
        assertEquals(10 * 500, s.callsToSteady());

        List<Records.Batch> rising = new ArrayList<>();
        for (int i = 1; i <= 200; i++) { // every 50 batches slower: never stays near its final level for 20k calls
            rising.add(new Records.Batch(i * 500L, i % 50 < 25 ? 100 : 20));
        }
        SteadyState.Settling r = SteadyState.settle(rising);
        assertFalse(r.settled(), r.toString());
        assertEquals(200 * 500, r.callsToSteady());
    }

    @Test
    void smallOpTargetIsJudgedOnWallClockThenOnCpuTime() throws IOException {
        // typed = C + 30 ns on the wall clock but + 9 ns of CPU time; raw = C + 20 ns of CPU time
        Run report = report((label, variant) -> switch (variant) {
            case "typed" -> new double[] {80, 19};
            case "raw" -> new double[] {70, 30};
            default -> new double[] {50, 10};
        }, 0);
        Map<String, Targets.Verdict> verdicts = byTarget(report);
        assertEquals(Targets.Met.PARTLY, verdicts.get("typed small ops ≤ C-in-JVM + 15 ns").met());
        assertEquals("on CPU time", verdicts.get("typed small ops ≤ C-in-JVM + 15 ns").metText());
        assertEquals(Targets.Met.NO, verdicts.get("raw binding ≤ C-in-JVM + 12 ns").met());
        assertTrue(verdicts.get("raw binding ≤ C-in-JVM + 12 ns").why().contains("+20.0 ns on CPU time"),
                verdicts.get("raw binding ≤ C-in-JVM + 12 ns").why());
        assertEquals(Targets.Met.YES, verdicts.get("0 B/op for every typed hot path after warm-up").met());
    }

    @Test
    void withinMarginsEverythingIsMetAndSmokeFindsNothing() throws IOException {
        Run report = report((label, variant) -> variant.equals("c") ? new double[] {50, 10}
                : new double[] {55, 15}, 0);
        Map<String, Targets.Verdict> verdicts = byTarget(report);
        assertEquals(Targets.Met.YES, verdicts.get("typed small ops ≤ C-in-JVM + 15 ns").met());
        assertEquals(Targets.Met.YES, verdicts.get("raw binding ≤ C-in-JVM + 12 ns").met());
        assertEquals(Targets.Met.YES, verdicts.get("barrier_all ≤ C-in-JVM + 20 ns").met());
        assertEquals(List.of(), report.smokeProblems());
        assertTrue(report.markdown().contains("| int64 fetch_add |"), "the atomic matrix has a row per op and type");
    }

    @Test
    void smokeFlagsAnAllocatingTypedPathAndAMissingBenchmark() throws IOException {
        Run report = report((label, variant) -> new double[] {50, 10}, 24);
        List<String> problems = report.smokeProblems();
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("typed p allocates 24.000 B/op")), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.equals("no result for g (raw)")), problems.toString());
        assertEquals(Targets.Met.NO, byTarget(report).get("0 B/op for every typed hot path after warm-up").met());
    }

    /** Records for every expected row; with allocation, typed p allocates and "g raw" is missing (a failing smoke). */
    private Run report(TimesOf times, long typedBytesPerOp) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("round\tlabel\tvariant\tns_per_op\titerations");
        for (int round = 0; round < 3; round++) {
            for (String[] row : Rows.expected()) {
                if (typedBytesPerOp > 0 && row[0].equals("g") && row[1].equals("raw")) {
                    continue;
                }
                double[] t = times.of(row[0], row[1]);
                long ops = 1000;
                long bytes = row[1].equals("typed") && row[0].equals("p") ? typedBytesPerOp * ops : 0;
                String iteration = t[0] + "/" + bytes + "/" + ops + "/" + (long) (t[1] * ops);
                lines.add(round + "\t" + row[0] + "\t" + row[1] + "\t" + t[0] + "\t" + iteration + ";" + iteration);
            }
        }
        Path rounds = dir.resolve("rounds.tsv");
        Files.write(rounds, lines);
        writeSteady(name -> i -> i < 3 ? 500 : 20);
        Path emu = dir.resolve("emu-2pe.txt");
        Files.write(emu, List.of("[PE 0] RESULT put_bw size=1048576 put_gbps=10.0 memcpy_gbps=11.0 ratio=0.909",
                "[PE 0] RESULT barrier_all_latency pes=2 iters=100 median_us=0.3 p99_us=1.0"));
        return new Run(new RunStats(Records.read(rounds)), Records.readSteadyState(dir.resolve("steady.tsv")),
                Map.of(2, Ceiling.read(emu)));
    }

    /** ns per call of batch i (from 1) of each steady-state curve. */
    private void writeSteady(java.util.function.Function<String, java.util.function.IntToDoubleFunction> curves)
            throws IOException {
        List<String> steady = new ArrayList<>(List.of("benchmark\titeration\tcalls\tns_per_call"));
        List<String> names = new ArrayList<>(SteadyState.CURVES);
        names.addAll(SteadyState.FOREGROUND_CURVES);
        for (String name : names) {
            for (int i = 1; i <= 200; i++) {
                steady.add(name + "\t" + i + "\t" + i * 500 + "\t" + curves.apply(name).applyAsDouble(i));
            }
        }
        Files.write(dir.resolve("steady.tsv"), steady);
    }

    @Test
    void lateSteadyStateThatTheEmptyNativeSharesIsTheHarnessNotTheApi() throws IOException {
        Run report = report((label, variant) -> new double[] {50, 10}, 0);
        // both curves drop at 50k calls (the harness loop's compile); typed p's own cost is flat from 10k calls
        writeSteady(name -> i -> (name.equals(SteadyState.EMPTY_NATIVE) ? 10 : i <= 20 ? 80 : 30)
                + (i <= 100 ? 15 : 0));
        report = new Run(report.stats(), Records.readSteadyState(dir.resolve("steady.tsv")), Map.of());
        Targets.Verdict steady = byTarget(report).get("steady state within 20k calls");
        assertEquals(Targets.Met.PARTLY, steady.met(), steady.result());
        assertTrue(steady.result().contains("50,000 calls end to end"), steady.result());
        assertTrue(steady.result().contains("10,000 calls (final +20.0 ns)"), steady.result());
    }

    @Test
    void steadyInCallsWithForegroundCompilationIsSaidSo() throws IOException {
        Run report = report((label, variant) -> new double[] {50, 10}, 0);
        // background compilation: typed p settles at 50k calls, and its own cost too; with -Xbatch after 5k calls
        writeSteady(name -> i -> name.endsWith(SteadyState.FOREGROUND_JIT) ? (i <= 10 ? 90 : 20)
                : name.equals(SteadyState.EMPTY_NATIVE) ? 10 : i <= 100 ? 60 : 20);
        report = new Run(report.stats(), Records.readSteadyState(dir.resolve("steady.tsv")), Map.of());
        Targets.Verdict steady = byTarget(report).get("steady state within 20k calls");
        assertEquals(Targets.Met.PARTLY, steady.met(), steady.result());
        assertEquals("in calls (-Xbatch)", steady.metText());
        assertTrue(steady.result().contains("50,000 calls end to end"), steady.result());
        assertTrue(steady.result().endsWith("with -Xbatch: 5,000 calls"), steady.result());
        assertTrue(steady.why().contains("typed p is steady after 5,000 calls"), steady.why());
        assertTrue(report.markdown().contains("| typed p (-Xbatch) |"), "the -Xbatch curves have rows");
    }

    /** The report's parts on one set of records, as ReportMain wires them. */
    private record Run(RunStats stats, Map<String, List<Records.Batch>> steady, Map<Integer, Ceiling> ceilings) {
        List<Targets.Verdict> verdicts() {
            RunInfo info = new RunInfo("d", "c", "0.1", "0.2", false);
            return new Targets(stats, steady, Machine.describe(), info).verdicts();
        }

        String markdown() {
            return new MarkdownReport(stats, steady, ceilings, Machine.describe(),
                    new RunInfo("d", "c", "0.1", "0.2", false), verdicts()).markdown();
        }

        List<String> smokeProblems() {
            return SmokeCheck.problems(stats, steady, ceilings);
        }
    }

    private static Map<String, Targets.Verdict> byTarget(Run report) {
        Map<String, Targets.Verdict> map = new java.util.HashMap<>();
        report.verdicts().forEach(v -> map.put(v.target(), v));
        return map;
    }

    @FunctionalInterface
    interface TimesOf {
        /** {wall-clock ns per call, CPU ns per call} of a row. */
        double[] of(String label, String variant);
    }
}
