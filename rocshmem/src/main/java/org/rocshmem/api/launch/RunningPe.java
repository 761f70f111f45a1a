package org.rocshmem.api.launch;

/** One started PE process with the pumps draining its output. */
final class RunningPe {
    final int rank;
    final Process process;
    final OutputPump stdout;
    final OutputPump stderr;
    volatile boolean stoppedByLauncher;

    RunningPe(int rank, Process process, OutputPump stdout, OutputPump stderr) {
        this.rank = rank;
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    PeResult result() {
        return new PeResult(rank, process.pid(), process.exitValue(), stoppedByLauncher,
                stdout.capturedLines(), stderr.capturedLines());
    }
}
