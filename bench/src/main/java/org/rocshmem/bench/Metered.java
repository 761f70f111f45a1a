package org.rocshmem.bench;

import java.lang.management.ManagementFactory;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Base of the benchmark states: for each measurement iteration, counts the bytes the benchmark thread allocates
 * (the JVM's per-thread allocation counter), the CPU time it uses and the operations it makes, read in the
 * iteration fixtures, which JMH runs on the benchmark thread around the measured loop. The report gives bytes per
 * operation, and CPU time per operation beside JMH's wall-clock time: on a shared machine the wall clock also
 * counts the time the PE waited for a CPU, the thread's CPU time does not.
 * Benchmark methods add their operation count to {@link #operations}.
 */
public abstract class Metered {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** Operations made so far by this trial's benchmark method (k per invocation). */
    public long operations;
    private String key;
    private boolean measuring;
    private long bytesAtStart;
    private long cpuAtStart;
    private long operationsAtStart;

    @Setup(Level.Trial)
    public final void meterTrial(BenchmarkParams params) {
        key = Measurements.key(params);
        operations = 0;
    }

    @Setup(Level.Iteration)
    public final void meterStart(IterationParams iteration) {
        beforeIteration();
        measuring = iteration.getType() == IterationType.MEASUREMENT;
        operationsAtStart = operations;
        cpuAtStart = THREADS.getCurrentThreadCpuTime();
        bytesAtStart = THREADS.getCurrentThreadAllocatedBytes();
    }

    /** Runs at the start of every iteration, before the counters are read (collectives line the PEs up here). */
    protected void beforeIteration() {
    }

    /** Runs at the end of every iteration, before its counts are recorded ({@code measuring}: a measurement one). */
    protected void afterIteration(boolean measuring) {
    }

    @TearDown(Level.Iteration)
    public final void meterStop() {
        afterIteration(measuring);
        long bytes = THREADS.getCurrentThreadAllocatedBytes() - bytesAtStart;
        long cpu = THREADS.getCurrentThreadCpuTime() - cpuAtStart;
        if (measuring) {
            Measurements.addIteration(key, bytes, operations - operationsAtStart, cpu);
        }
    }
}
