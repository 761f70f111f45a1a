package org.rocshmem.api.testing;

import java.nio.file.Path;
import java.util.List;
import org.rocshmem.api.launch.LaunchResult;
import org.rocshmem.api.launch.PeResult;

/** Builds the assertion message of a failed multi-PE test: per PE its status, stack trace and output tail. */
final class MultiPeFailureMessage {
    private static final int FAILED_PE_TAIL_LINES = 20;
    private static final int STOPPED_PE_TAIL_LINES = 10;

    private MultiPeFailureMessage() {
    }

    static String format(String test, LaunchResult result, Path reportDir) {
        StringBuilder message = new StringBuilder(test).append(" failed: ").append(result.reason());
        // Failed PEs first: they carry the cause, stopped PEs are usually consequences.
        result.pes().stream().filter(pe -> !pe.succeeded() && !pe.stoppedByLauncher())
                .forEach(pe -> appendPe(message, pe, "failed", MultiPeRun.readReport(reportDir, pe), FAILED_PE_TAIL_LINES));
        result.pes().stream().filter(PeResult::stoppedByLauncher)
                .forEach(pe -> appendPe(message, pe, result.timedOut() ? "stopped at the timeout" : "stopped after the failure",
                        "", STOPPED_PE_TAIL_LINES));
        return message.toString();
    }

    private static void appendPe(StringBuilder message, PeResult pe, String what, String report, int tailLines) {
        message.append(System.lineSeparator()).append("--- PE ").append(pe.rank()).append(" (pid ").append(pe.pid())
                .append("): exit status ").append(pe.exitStatus()).append(", ").append(what).append(" ---")
                .append(System.lineSeparator());
        if (!report.isBlank()) {
            message.append(report.strip()).append(System.lineSeparator());
        }
        appendTail(message, "stdout", pe.stdout(), tailLines);
        appendTail(message, "stderr", pe.stderr(), tailLines);
    }

    private static void appendTail(StringBuilder message, String stream, List<String> lines, int tailLines) {
        if (lines.isEmpty()) {
            return;
        }
        List<String> tail = lines.subList(Math.max(0, lines.size() - tailLines), lines.size());
        message.append("last ").append(tail.size()).append(" ").append(stream).append(" line(s):")
                .append(System.lineSeparator());
        tail.forEach(line -> message.append("  | ").append(line).append(System.lineSeparator()));
    }
}
