package org.rocshmem.api.launch;

import static org.rocshmem.api.bootstrap.LaunchEnvVars.*;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A running job. Supervision rule: the first PE to exit non-zero, or the timeout, ends the job; every other PE
 * (and its descendants) is then stopped. A shutdown hook stops all PEs if this JVM is terminated meanwhile; if it is
 * killed outright, each PE's {@link LauncherWatchdog} stops it. When the PEs are gone, the emulator objects that PEs
 * killed during init could not remove are swept ({@link EmulatorObjects}).
 */
public final class Launch implements AutoCloseable {
    /** Bound on draining output after exit; an orphaned grandchild may keep a pipe open forever. */
    private static final long OUTPUT_DRAIN_MILLIS = 2_000;
    /**
     * The status of a PE that the emulator ended because another PE failed: it died (a kernel fault included), left
     * without finalize, or found a collective mismatch. Such a PE is a survivor, not the cause; every other non-zero
     * status (70 for the PE that failed or found the failure) is reported at once.
     */
    static final int ENDED_BY_ANOTHER_PE_STATUS = 71;
    /** How long a survivor's exit waits for the PE that caused it to exit too (a JVM takes a moment to go). */
    private static final long ROOT_CAUSE_WAIT_MILLIS = 5_000;

    private final PeJob job;
    private final List<RunningPe> pes = new ArrayList<>();
    private final LinkedBlockingQueue<RunningPe> exits = new LinkedBlockingQueue<>();
    private final long startNanos = System.nanoTime();
    private final Thread shutdownHook = new Thread(this::stopAllAndSweep, "rocshmem-launch-shutdown");
    private final String jobId = JobIdentity.randomHex(16);
    private final String secret = JobIdentity.randomHex(32);
    private final int masterPort;
    private LaunchResult result;

    private Launch(PeJob job) throws IOException {
        this.job = job;
        this.masterPort = job.masterPort() != 0 ? job.masterPort() : JobIdentity.freePort(job.masterAddr());
    }

    static Launch start(PeJob job) throws IOException {
        Launch launch = new Launch(job);
        Runtime.getRuntime().addShutdownHook(launch.shutdownHook);
        try {
            for (int rank = 0; rank < job.nproc(); rank++) {
                launch.startPe(rank);
            }
        } catch (IOException | RuntimeException e) {
            launch.close();
            throw e;
        }
        return launch;
    }

    private void startPe(int rank) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(job.command());
        Map<String, String> env = builder.environment();
        env.putAll(job.extraEnv());
        env.put(RANK, Integer.toString(rank));
        int perNode = job.pesPerNode();
        env.put(LOCAL_RANK, Integer.toString(rank % perNode));
        env.put(WORLD_SIZE, Integer.toString(job.nproc()));
        env.put(LOCAL_WORLD_SIZE, Integer.toString(perNode));
        env.put(GROUP_RANK, Integer.toString(rank / perNode));
        env.put(GROUP_WORLD_SIZE, Integer.toString(job.nnodes()));
        env.put(MASTER_ADDR, job.masterAddr());
        env.put(MASTER_PORT, Integer.toString(masterPort));
        env.put(ROCSHMEM_EMU_JOB_ID, jobId);
        env.put(ROCSHMEM_BOOTSTRAP_SECRET, secret);
        env.put(ROCSHMEM_LAUNCHER_PID, Long.toString(ProcessHandle.current().pid()));
        Process process = builder.start();
        process.getOutputStream().close(); // N processes cannot share one terminal's stdin sensibly
        String prefix = "[PE " + rank + "] ";
        OutputPump out = new OutputPump(process.getInputStream(), prefix, job.echoOut(), job.capturedLines(),
                "pe-" + rank + "-stdout");
        OutputPump err = new OutputPump(process.getErrorStream(), prefix, job.echoErr(), job.capturedLines(),
                "pe-" + rank + "-stderr");
        RunningPe pe = new RunningPe(rank, process, out, err);
        pes.add(pe);
        out.start();
        err.start();
        process.onExit().thenRun(() -> exits.add(pe));
    }

    /** Pids of the PE processes, in rank order. */
    public List<Long> pids() {
        return pes.stream().map(pe -> pe.process.pid()).toList();
    }

    public int masterPort() {
        return masterPort;
    }

    /** Blocks until every PE exited 0, one failed, or the timeout expired; then stops the rest. */
    public synchronized LaunchResult await() throws InterruptedException {
        if (result != null) {
            return result;
        }
        RunningPe failed = null;
        boolean timedOut = false;
        int exited = 0;
        while (exited < pes.size()) {
            RunningPe pe = nextExit();
            if (pe == null) {
                timedOut = true;
                break;
            }
            exited++;
            if (pe.process.exitValue() != 0) {
                // first failure wins: later exits are consequences of stopping the others. But a survivor that the
                // emulator ended may exit before the PE that caused it, which is still printing its exception.
                failed = pe.process.exitValue() == ENDED_BY_ANOTHER_PE_STATUS ? rootCause(pe) : pe;
                break;
            }
        }
        int stopped = stopAll();
        sweepLeftovers();
        for (RunningPe pe : pes) {
            pe.process.waitFor(); // stopAll() already waited; this only makes exitValue() safe
            long remaining = OUTPUT_DRAIN_MILLIS;
            long before = System.nanoTime();
            pe.stdout.awaitEnd(remaining);
            pe.stderr.awaitEnd(Math.max(1, remaining - (System.nanoTime() - before) / 1_000_000));
        }
        removeShutdownHook();
        result = buildResult(failed, timedOut, stopped);
        return result;
    }

    /**
     * After {@code survivor} exited with {@link #ENDED_BY_ANOTHER_PE_STATUS}: the first PE to exit with another
     * non-zero status within {@link #ROOT_CAUSE_WAIT_MILLIS} (the one that ended the job), else {@code survivor}
     * (a collective mismatch, or a cause that never exits: the survivor's message names it).
     */
    private RunningPe rootCause(RunningPe survivor) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ROOT_CAUSE_WAIT_MILLIS);
        while (true) {
            long left = deadline - System.nanoTime();
            RunningPe pe = left <= 0 ? null : exits.poll(left, TimeUnit.NANOSECONDS);
            if (pe == null) {
                return survivor;
            }
            int status = pe.process.exitValue();
            if (status != 0 && status != ENDED_BY_ANOTHER_PE_STATUS) {
                return pe;
            }
        }
    }

    private RunningPe nextExit() throws InterruptedException {
        long timeoutNanos = timeoutNanos();
        if (timeoutNanos == Long.MAX_VALUE) {
            return exits.take();
        }
        long remainingNanos = timeoutNanos - (System.nanoTime() - startNanos);
        return exits.poll(Math.max(0, remainingNanos), TimeUnit.NANOSECONDS);
    }

    /** The timeout in nanoseconds; Long.MAX_VALUE for none or for one too long to count (e.g. 1e10 s). */
    private long timeoutNanos() {
        if (job.timeout() == null) {
            return Long.MAX_VALUE;
        }
        try {
            return job.timeout().toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    private LaunchResult buildResult(RunningPe failed, boolean timedOut, int stopped) {
        List<PeResult> results = pes.stream().map(RunningPe::result).toList();
        if (timedOut) {
            return new LaunchResult(LaunchResult.TIMEOUT_STATUS, "timeout after " + job.timeout().toMillis()
                    + " ms; stopped " + stopped + " running PE(s)", -1, true, results);
        }
        String stoppedNote = stopped == 0 ? "" : "; stopped " + stopped + " other PE(s)";
        if (failed != null) {
            int status = failed.process.exitValue();
            String exception = failed.stderr.uncaughtException();
            return new LaunchResult(status, "PE " + failed.rank + " (pid " + failed.process.pid()
                    + ") exited with status " + status + (exception == null ? "" : ": " + exception) + stoppedNote,
                    failed.rank, false, results);
        }
        return new LaunchResult(0, "", -1, false, results);
    }

    /** Stops every PE still alive (with descendants); returns how many were alive. */
    private int stopAll() {
        List<ProcessHandle> alive = new ArrayList<>();
        for (RunningPe pe : pes) {
            if (pe.process.isAlive()) {
                pe.stoppedByLauncher = true;
                alive.add(pe.process.toHandle());
            }
        }
        if (!alive.isEmpty()) {
            ProcessTreeStopper.stop(alive, job.stopGrace());
        }
        return alive.size();
    }

    private void stopAllAndSweep() {
        stopAll();
        sweepLeftovers();
    }

    /** Removes what PEs killed during init left in the emulator's object directory (they are all gone now). */
    private void sweepLeftovers() {
        List<Long> gone = pes.stream().filter(pe -> !pe.process.isAlive()).map(pe -> pe.process.pid()).toList();
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putAll(job.extraEnv());
        int removed = EmulatorObjects.sweep(EmulatorObjects.directory(env), gone);
        if (removed > 0 && job.echoErr() != null) {
            job.echoErr().println("launcher: removed " + removed + " shared-memory object(s) left by PEs that died"
                    + " during init");
        }
    }

    private void removeShutdownHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // JVM already shutting down: the hook is running or about to, which is what we want.
        }
    }

    /** Stops any PE still running without waiting for a verdict. Idempotent. */
    @Override
    public void close() {
        stopAllAndSweep();
        removeShutdownHook();
    }
}
