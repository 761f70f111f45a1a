package org.rocshmem.api.launch;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Description of a job of N PE processes, each a JVM running {@code mainClass}. Build with {@link #builder},
 * then {@link #run()} (blocking) or {@link #start()} (to see pids while it runs).
 *
 * <pre>{@code
 * LaunchResult result = PeJob.builder("com.example.Main").nproc(2).timeout(Duration.ofMinutes(1)).build().run();
 * }</pre>
 */
public final class PeJob {
    private final int nproc;
    private final int nnodes;
    private final String mainClass;
    private final List<String> args;
    private final List<String> jvmArgs;
    private final String javaCommand;
    private final String classpath;
    private final Duration timeout;
    private final String masterAddr;
    private final int masterPort;
    private final Map<String, String> extraEnv;
    private final PrintStream echoOut;
    private final PrintStream echoErr;
    private final int capturedLines;
    private final Duration stopGrace;

    private PeJob(Builder b) {
        this.nproc = b.nproc;
        this.nnodes = b.nnodes;
        this.mainClass = b.mainClass;
        this.args = List.copyOf(b.args);
        this.jvmArgs = List.copyOf(b.jvmArgs);
        this.javaCommand = b.javaCommand != null ? b.javaCommand : currentJavaCommand();
        this.classpath = b.classpath != null ? b.classpath : System.getProperty("java.class.path", "");
        this.timeout = b.timeout;
        this.masterAddr = b.masterAddr;
        this.masterPort = b.masterPort;
        this.extraEnv = Map.copyOf(b.extraEnv);
        this.echoOut = b.echoOut;
        this.echoErr = b.echoErr;
        this.capturedLines = b.capturedLines;
        this.stopGrace = b.stopGrace;
    }

    public static Builder builder(String mainClass) {
        return new Builder(mainClass);
    }

    public static Builder builder(Class<?> mainClass) {
        return new Builder(mainClass.getName());
    }

    /** Starts all PEs; the caller must {@link Launch#await()} (or close) the returned launch. */
    public Launch start() throws IOException {
        return Launch.start(this);
    }

    /** Starts all PEs and waits for the outcome. */
    public LaunchResult run() throws IOException, InterruptedException {
        try (Launch launch = start()) {
            return launch.await();
        }
    }

    /**
     * Command line of one PE: {@code java <jvmArgs> -cp <classpath> org.rocshmem.api.launch.PeMain <mainClass> <args>}.
     * {@link PeMain} runs the program's main after starting the watchdog that ends the PE when the launcher dies, so
     * the class path must contain this library.
     */
    List<String> command() {
        List<String> command = new ArrayList<>();
        command.add(javaCommand);
        command.addAll(jvmArgs);
        if (!classpath.isEmpty()) {
            command.add("-cp");
            command.add(classpath);
        }
        command.add(PeMain.class.getName());
        command.add(mainClass);
        command.addAll(args);
        return command;
    }

    /**
     * This JVM's -Dorg.bytedeco.* (native variant, JavaCPP cache), -Drocshmem.* and java.library.path
     * settings as PE JVM options, so a PE loads the same native libraries as the JVM that starts it.
     */
    public static List<String> inheritedSystemProperties() {
        return System.getProperties().stringPropertyNames().stream().sorted()
                .filter(name -> name.startsWith("org.bytedeco.") || name.startsWith("rocshmem.")
                        || name.equals("java.library.path"))
                .map(name -> "-D" + name + "=" + System.getProperty(name))
                .toList();
    }

    static String nodesMismatch(int nproc, int nnodes) {
        return nproc + " PEs cannot be split into " + nnodes + " nodes of equal size (nproc must be a multiple of nnodes)";
    }

    /** Same binary as this JVM, so PEs run the same Java version and vendor. */
    private static String currentJavaCommand() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    public int nproc() { return nproc; }
    /** Simulated nodes the PEs are grouped into (1: all on one node). */
    public int nnodes() { return nnodes; }
    /** PEs per simulated node; PE {@code r} is on node {@code r / pesPerNode()}. */
    public int pesPerNode() { return nproc / nnodes; }
    public String mainClass() { return mainClass; }
    public List<String> args() { return args; }
    public List<String> jvmArgs() { return jvmArgs; }
    public String classpath() { return classpath; }
    /** Null means no timeout. */
    public Duration timeout() { return timeout; }
    public String masterAddr() { return masterAddr; }
    /** 0 means "pick a free port at start". */
    public int masterPort() { return masterPort; }
    public Map<String, String> extraEnv() { return extraEnv; }
    PrintStream echoOut() { return echoOut; }
    PrintStream echoErr() { return echoErr; }
    public int capturedLines() { return capturedLines; }
    public Duration stopGrace() { return stopGrace; }

    public static final class Builder {
        private int nproc = 1;
        private int nnodes = 1;
        private final String mainClass;
        private final List<String> args = new ArrayList<>();
        private final List<String> jvmArgs = new ArrayList<>();
        private String javaCommand;
        private String classpath;
        private Duration timeout;
        private String masterAddr = "127.0.0.1";
        private int masterPort;
        private final Map<String, String> extraEnv = new LinkedHashMap<>();
        private PrintStream echoOut = System.out;
        private PrintStream echoErr = System.err;
        private int capturedLines = 1000;
        private Duration stopGrace = Duration.ofSeconds(5);

        private Builder(String mainClass) {
            if (mainClass == null || mainClass.isBlank()) {
                throw new IllegalArgumentException("main class must not be empty");
            }
            this.mainClass = mainClass;
        }

        public Builder nproc(int nproc) {
            if (nproc < 1) {
                throw new IllegalArgumentException("nproc must be >= 1, got " + nproc);
            }
            this.nproc = nproc;
            return this;
        }

        /**
         * Groups the PEs into {@code nnodes} simulated nodes of {@code nproc / nnodes} consecutive ranks each: every PE
         * gets that LOCAL_WORLD_SIZE, its LOCAL_RANK on the node, and torchrun's GROUP_RANK (node index) and
         * GROUP_WORLD_SIZE (node count). The CPU emulator takes LOCAL_WORLD_SIZE as its node size, so
         * {@code ROCSHMEM_TEAM_SHARED} is the node and {@code rocshmem_ptr} is null across nodes. {@link #build()}
         * requires {@code nproc} to be a multiple of it.
         */
        public Builder nnodes(int nnodes) {
            if (nnodes < 1) {
                throw new IllegalArgumentException("nnodes must be >= 1, got " + nnodes);
            }
            this.nnodes = nnodes;
            return this;
        }

        public Builder args(String... args) {
            return args(List.of(args));
        }

        public Builder args(List<String> args) {
            this.args.addAll(args);
            return this;
        }

        public Builder jvmArgs(String... jvmArgs) {
            return jvmArgs(List.of(jvmArgs));
        }

        public Builder jvmArgs(List<String> jvmArgs) {
            this.jvmArgs.addAll(jvmArgs);
            return this;
        }

        public Builder javaCommand(String javaCommand) {
            this.javaCommand = Objects.requireNonNull(javaCommand);
            return this;
        }

        /** Defaults to this JVM's java.class.path. */
        public Builder classpath(String classpath) {
            this.classpath = Objects.requireNonNull(classpath);
            return this;
        }

        public Builder classpath(List<Path> entries) {
            return classpath(String.join(File.pathSeparator, entries.stream().map(Path::toString).toList()));
        }

        /** Null or zero = no timeout. */
        public Builder timeout(Duration timeout) {
            if (timeout != null && timeout.isNegative()) {
                throw new IllegalArgumentException("timeout must not be negative");
            }
            this.timeout = timeout == null || timeout.isZero() ? null : timeout;
            return this;
        }

        public Builder masterAddr(String masterAddr) {
            this.masterAddr = Objects.requireNonNull(masterAddr);
            return this;
        }

        /** 0 (the default) lets the launcher pick a free port on MASTER_ADDR. */
        public Builder masterPort(int masterPort) {
            if (masterPort < 0 || masterPort > 65535) {
                throw new IllegalArgumentException("master port must be in [0, 65535], got " + masterPort);
            }
            this.masterPort = masterPort;
            return this;
        }

        /** Extra variables for every PE; they override inherited ones but not the launcher's own. */
        public Builder env(String name, String value) {
            this.extraEnv.put(name, value);
            return this;
        }

        /** Where prefixed child output is echoed; null to only capture it. Defaults to System.out/err. */
        public Builder echoTo(PrintStream out, PrintStream err) {
            this.echoOut = out;
            this.echoErr = err;
            return this;
        }

        public Builder quiet() {
            return echoTo(null, null);
        }

        /** How many trailing lines per stream are kept in {@link PeResult}. */
        public Builder capturedLines(int capturedLines) {
            if (capturedLines < 0) {
                throw new IllegalArgumentException("capturedLines must be >= 0");
            }
            this.capturedLines = capturedLines;
            return this;
        }

        /** Time between destroy and destroyForcibly when stopping PEs (default 5 s). */
        public Builder stopGrace(Duration stopGrace) {
            this.stopGrace = Objects.requireNonNull(stopGrace);
            return this;
        }

        public PeJob build() {
            if (nproc % nnodes != 0) {
                throw new IllegalArgumentException(nodesMismatch(nproc, nnodes));
            }
            return new PeJob(this);
        }
    }
}
