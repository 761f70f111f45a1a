package org.rocshmem.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.rocshmem.bench.ops.SteadyStateBenchmarks;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.rocshmem.api.Rocshmem;

/**
 * The program every PE runs (started by {@link BenchRun} through the project's launcher, one JVM per PE): opens the
 * rocSHMEM session, then runs the identical JMH plan in this JVM (forks(0)), so the collective calls of the
 * benchmark states and of the collective benchmarks pair up across PEs. PE 0 writes the results.
 *
 * <pre>
 * BenchMain --plan full|smoke --rounds N --records FILE --logs DIR [--include REGEX]
 * BenchMain --plan steady|steady-smoke [--curves NAME,...] --records FILE --logs DIR
 * </pre>
 *
 * <p>Rounds interleave the variants: within a round the three variants of an operation run back to back, and the
 * order rotates from round to round (c, raw, typed; raw, typed, c; typed, c, raw), so slow drifts of the machine
 * fall on every variant alike. The report takes the median over rounds.
 */
public final class BenchMain {
    /** Every benchmark of the rounds (the steady-state curves run separately, in fresh JVMs). */
    static final String ALL = "org\\.rocshmem\\.bench\\.ops\\.(Rma|Array|Tensor|Atomic|Sync|Collective|Stream|Kernel|JniCost)Benchmarks\\.";
    /**
     * The steady-state curves (SteadyStateBenchmarks methods). bench/run.sh runs each in fresh PE JVMs; given
     * together, typed_p comes first so that it meets the typed path cold.
     */
    public static final String[] STEADY_CURVES = {"typed_p", "empty_native", "typed_putmem_8B", "raw_p"};
    /** Calls per single-shot iteration of the steady-state curves. */
    public static final int STEADY_BATCH = 500;
    /**
     * Suffix of a curve measured in a JVM started with -Xbatch: each method waits for its own compilation, so the
     * curve counts the calls the path needs, whatever the compile queue's latency on a busy machine.
     */
    public static final String FOREGROUND_JIT = "_xbatch";
    /** The curves bench/run.sh also measures with -Xbatch. */
    public static final String[] FOREGROUND_CURVES = {"typed_p", "empty_native"};
    private static final String[][] VARIANT_ORDERS = {
        {"c", "raw", "typed"}, {"raw", "typed", "c"}, {"typed", "c", "raw"}};

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = parse(args);
        // Every PE runs JMH at the same time on this machine; JMH's one-run-per-machine lock would stop PE 1.
        System.setProperty("jmh.ignoreLock", "true");
        String plan = options.getOrDefault("--plan", "full");
        Path records = Path.of(required(options, "--records"));
        Path logs = Path.of(required(options, "--logs"));
        Files.createDirectories(logs);
        try (Rocshmem shmem = Rocshmem.init()) {
            Pe.open(shmem);
            Path log = logs.resolve("jmh-" + plan + "-pe" + shmem.myPe() + ".log");
            List<String> lines = switch (plan) {
                case "full", "smoke" -> rounds(plan.equals("smoke"), Integer.parseInt(options.getOrDefault("--rounds",
                        plan.equals("smoke") ? "1" : "3")), options.getOrDefault("--include", ALL), log);
                case "steady", "steady-smoke" -> steadyState(plan.equals("steady-smoke"),
                        options.getOrDefault("--curves", String.join(",", STEADY_CURVES)).split(","), log);
                default -> throw new IllegalArgumentException("unknown --plan " + plan);
            };
            shmem.barrierAll();
            if (shmem.myPe() == 0) {
                Files.createDirectories(records.toAbsolutePath().getParent());
                Files.write(records, lines);
                System.out.println("BenchMain: wrote " + lines.size() + " records to " + records);
            }
        }
    }

    /**
     * Records: round, benchmark label, variant, JMH's score (mean ns per operation), and per measurement iteration
     * "ns per operation/allocated bytes/operations/CPU ns" of the benchmark thread.
     */
    private static List<String> rounds(boolean smoke, int rounds, String include, Path log) throws RunnerException {
        List<String> lines = new ArrayList<>();
        lines.add("round\tlabel\tvariant\tjmh_score_ns"
                + "\tmeasurement iterations (ns per op/allocated bytes/operations/CPU ns)");
        for (int round = 0; round < rounds; round++) {
            Measurements.clear();
            ChainedOptionsBuilder builder = new OptionsBuilder()
                    .include(include)
                    .param("variant", VARIANT_ORDERS[round % VARIANT_ORDERS.length])
                    .forks(0)
                    .shouldFailOnError(true)
                    .verbosity(VerboseMode.NORMAL)
                    .output(log.resolveSibling(log.getFileName().toString().replace(".log", "-round" + round + ".log"))
                            .toString());
            if (smoke) { // just enough to run every benchmark and meter its allocation once warm
                builder.warmupIterations(2).warmupTime(TimeValue.milliseconds(20))
                        .measurementIterations(3).measurementTime(TimeValue.milliseconds(10));
            }
            long start = System.nanoTime();
            Collection<RunResult> results = new Runner(builder.build()).run();
            for (RunResult result : results) {
                BenchmarkParams params = result.getParams();
                String variant = params.getParamsKeys().contains("variant") ? params.getParam("variant") : "-";
                List<Double> scores = new ArrayList<>();
                for (BenchmarkResult br : result.getBenchmarkResults()) {
                    for (IterationResult ir : br.getIterationResults()) {
                        scores.add(ir.getPrimaryResult().getScore());
                    }
                }
                String key = Measurements.key(params);
                List<String> forms = Measurements.splitForms(key);
                if (forms.isEmpty()) {
                    lines.add(round + "\t" + label(params) + "\t" + variant + "\t" + result.getPrimaryResult().getScore()
                            + "\t" + Measurements.iterations(key, scores));
                }
                for (String form : forms) { // forms timed side by side (Split): one record each
                    lines.add(round + "\t" + label(params) + " " + form + "\t" + variant + "\t"
                            + Measurements.splitScore(key, form) + "\t" + Measurements.splitIterations(key, form));
                }
            }
            System.out.printf("BenchMain: round %d of %d: %d benchmarks in %.0f s%n", round + 1, rounds, results.size(),
                    (System.nanoTime() - start) / 1e9);
        }
        return lines;
    }

    /** Records: benchmark, iteration, calls made by the end of it, ns per call in it. */
    private static List<String> steadyState(boolean smoke, String[] curves, Path log) throws RunnerException {
        int batch = STEADY_BATCH;
        // -Xbatch is the same as -XX:-BackgroundCompilation
        List<String> jvmArgs = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments();
        String suffix = jvmArgs.contains("-Xbatch") || jvmArgs.contains("-XX:-BackgroundCompilation")
                ? FOREGROUND_JIT : "";
        int iterations = smoke ? 40 : 400;
        List<String> lines = new ArrayList<>();
        lines.add("benchmark\titeration\tcalls\tns_per_call");
        for (String benchmark : curves) {
            Collection<RunResult> results = new Runner(new OptionsBuilder()
                    .include("org\\.rocshmem\\.bench\\.ops\\.SteadyStateBenchmarks\\." + benchmark + "$")
                    .forks(0)
                    .shouldFailOnError(true)
                    .warmupIterations(0)
                    .measurementIterations(iterations)
                    .measurementBatchSize(batch / SteadyStateBenchmarks.CALLS_PER_INVOCATION)
                    .verbosity(VerboseMode.SILENT)
                    .output(log.toString().replace(".log", "-" + benchmark + ".log"))
                    .build()).run();
            for (RunResult result : results) {
                for (BenchmarkResult br : result.getBenchmarkResults()) {
                    int i = 0;
                    for (IterationResult ir : br.getIterationResults()) {
                        i++;
                        // single-shot: the score is the time of the whole batch (JMH counts one operation)
                        double perCall = ir.getPrimaryResult().getScore() / batch;
                        lines.add(benchmark + suffix + "\t" + i + "\t" + (long) i * batch + "\t" + perCall);
                    }
                }
            }
        }
        return lines;
    }

    /** Method name plus the values of the parameters other than the variant, e.g. "atomic fetch_add int64". */
    static String label(BenchmarkParams params) {
        String benchmark = params.getBenchmark();
        StringBuilder label = new StringBuilder(benchmark.substring(benchmark.lastIndexOf('.') + 1));
        Map<String, String> sorted = new TreeMap<>();
        for (String name : params.getParamsKeys()) {
            if (!name.equals("variant")) {
                sorted.put(name, params.getParam(name));
            }
        }
        sorted.values().forEach(v -> label.append(' ').append(v));
        return label.toString();
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new TreeMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("usage: BenchMain --plan full|smoke|steady|steady-smoke"
                        + " [--rounds N] [--include REGEX] [--curves NAME,...] --records FILE --logs DIR (got "
                        + String.join(" ", args)
                        + ")");
            }
            options.put(args[i], args[i + 1]);
        }
        return options;
    }

    private static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null) {
            throw new IllegalArgumentException(name + " is required");
        }
        return value;
    }
}
