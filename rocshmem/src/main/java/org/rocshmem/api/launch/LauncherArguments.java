package org.rocshmem.api.launch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Parses {@code --nproc N [--nnodes K] [--timeout S] [--master-addr A] [--master-port P] [--jvm-arg X]... -- Main args...}. */
final class LauncherArguments {
    static final String USAGE = String.join(System.lineSeparator(),
            "usage: java -cp CLASSPATH org.rocshmem.api.launch.Launcher --nproc N [options] -- MainClass [args...]",
            "  --nproc N           number of PE processes (>= 1), required",
            "  --nnodes K          group the PEs into K simulated nodes of N/K consecutive ranks (default 1);",
            "                      N must be a multiple of K. On the CPU emulator ROCSHMEM_TEAM_SHARED is then",
            "                      the PEs of one node and rocshmem_ptr is null across nodes",
            "  --timeout SECONDS   stop all PEs and exit 124 after this many seconds (default: none)",
            "  --master-addr ADDR  rendezvous address given to PEs as MASTER_ADDR (default 127.0.0.1)",
            "  --master-port PORT  rendezvous port given as MASTER_PORT (default: a free port)",
            "  --jvm-arg ARG       extra option for every PE JVM (repeatable), e.g. --jvm-arg -Xmx1g",
            "  -h, --help          print this help",
            "Each PE runs the same java binary and classpath with RANK, LOCAL_RANK, WORLD_SIZE, LOCAL_WORLD_SIZE,",
            "GROUP_RANK (its node), GROUP_WORLD_SIZE (K), MASTER_ADDR, MASTER_PORT, ROCSHMEM_EMU_JOB_ID,",
            "ROCSHMEM_BOOTSTRAP_SECRET and ROCSHMEM_LAUNCHER_PID set.",
            "The first PE to fail stops the others and its exit status becomes the launcher's; a PE stops itself",
            "when the launcher is gone.");

    private LauncherArguments() {
    }

    /** Returns null when help was requested. */
    static PeJob.Builder parse(String[] argv) throws UsageException {
        int separator = Arrays.asList(argv).indexOf("--");
        List<String> options = Arrays.asList(argv).subList(0, separator < 0 ? argv.length : separator);
        if (options.contains("-h") || options.contains("--help")) {
            return null;
        }
        if (separator < 0) {
            throw new UsageException("missing '--' before the main class");
        }
        if (separator == argv.length - 1) {
            throw new UsageException("missing main class after '--'");
        }
        Integer nproc = null;
        int nnodes = 1;
        Duration timeout = null;
        String masterAddr = null;
        int masterPort = 0;
        // This JVM's variant/cache settings first, so an explicit --jvm-arg for the same property wins.
        List<String> jvmArgs = new ArrayList<>(PeJob.inheritedSystemProperties());
        for (int i = 0; i < options.size(); i += 2) {
            String flag = options.get(i);
            if (i + 1 >= options.size()) {
                throw new UsageException(flag.startsWith("--") ? "missing value for " + flag : "unknown argument " + flag);
            }
            String value = options.get(i + 1);
            switch (flag) {
                case "--nproc" -> nproc = intValue(flag, value, 1, 1_000_000);
                case "--nnodes" -> nnodes = intValue(flag, value, 1, 1_000_000);
                case "--timeout" -> timeout = seconds(value);
                case "--master-addr" -> masterAddr = value;
                case "--master-port" -> masterPort = intValue(flag, value, 0, 65535);
                case "--jvm-arg" -> jvmArgs.add(value);
                default -> throw new UsageException("unknown option " + flag);
            }
        }
        if (nproc == null) {
            throw new UsageException("--nproc is required");
        }
        if (nproc % nnodes != 0) {
            throw new UsageException("--nproc " + nproc + " is not a multiple of --nnodes " + nnodes
                    + " (every simulated node holds N/K PEs)");
        }
        List<String> program = Arrays.asList(argv).subList(separator + 1, argv.length);
        PeJob.Builder builder = PeJob.builder(program.get(0))
                .nproc(nproc)
                .nnodes(nnodes)
                .args(program.subList(1, program.size()))
                .jvmArgs(jvmArgs)
                .timeout(timeout)
                .masterPort(masterPort);
        if (masterAddr != null) {
            builder.masterAddr(masterAddr);
        }
        return builder;
    }

    private static int intValue(String flag, String value, int min, int max) throws UsageException {
        int parsed;
        try {
            parsed = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new UsageException(flag + " expects an integer, got '" + value + "'");
        }
        if (parsed < min || parsed > max) {
            throw new UsageException(flag + " must be in [" + min + ", " + max + "], got " + parsed);
        }
        return parsed;
    }

    private static Duration seconds(String value) throws UsageException {
        double seconds;
        try {
            seconds = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new UsageException("--timeout expects seconds, got '" + value + "'");
        }
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new UsageException("--timeout must be a positive number of seconds, got '" + value + "'");
        }
        return Duration.ofMillis(Math.max(1, Math.round(seconds * 1000)));
    }
}
