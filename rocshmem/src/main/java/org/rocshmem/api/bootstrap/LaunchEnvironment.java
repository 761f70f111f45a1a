package org.rocshmem.api.bootstrap;

import static org.rocshmem.api.bootstrap.LaunchEnvVars.*;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;

/**
 * Where this process sits in a job, read from environment variables.
 *
 * <p>Sources, in order: the torchrun names set by {@code org.rocshmem.api.launch.Launcher} (RANK, WORLD_SIZE,
 * LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT); for each one that is unset, Open MPI's
 * OMPI_COMM_WORLD_RANK/SIZE/LOCAL_RANK/LOCAL_SIZE (so {@code mpirun -n N java ...} works, like rocshmem4py).
 * Inside an {@code srun} job step, Slurm's SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID, tasks per node and node list
 * stand in last (see {@link SlurmStep}). LOCAL_RANK/LOCAL_WORLD_SIZE default to RANK/WORLD_SIZE (single node).
 * MASTER_ADDR defaults to ROCSHMEM_MASTER_ADDR, then 127.0.0.1; MASTER_PORT to ROCSHMEM_MASTER_PORT, then 29500.
 *
 * <p>Secret: ROCSHMEM_BOOTSTRAP_SECRET. If absent (e.g. under mpirun), a secret is derived from the first job
 * identifier found (ROCSHMEM_EMU_JOB_ID, PMIX_NAMESPACE, OMPI_MCA_ess_base_jobid, OMPI_MCA_orte_ess_jobid,
 * SLURM_JOB_ID, TORCHELASTIC_RUN_ID) plus MASTER_ADDR, MASTER_PORT and WORLD_SIZE, and a warning is logged:
 * such a secret only keeps unrelated jobs on the same port apart, it does not stop a local attacker. Off loopback
 * (a MASTER_ADDR that is not this machine's loopback, as in a multi-node job) a derived secret is refused: set
 * ROCSHMEM_BOOTSTRAP_SECRET.
 */
public record LaunchEnvironment(
        int rank,
        int worldSize,
        int localRank,
        int localWorldSize,
        String masterAddr,
        int masterPort,
        String secret,
        SecretSource secretSource,
        Duration bootstrapTimeout) {

    public static final String DEFAULT_MASTER_ADDR = "127.0.0.1";
    public static final int DEFAULT_MASTER_PORT = 29500;
    public static final Duration DEFAULT_BOOTSTRAP_TIMEOUT = Duration.ofSeconds(60);
    /** The longest rendezvous accepted: a larger value is a typo, and its deadline would overflow. */
    static final long MAX_BOOTSTRAP_TIMEOUT_SECONDS = 86_400;

    /** Job identifiers tried, in order, to derive a secret when ROCSHMEM_BOOTSTRAP_SECRET is unset. */
    static final String[] JOB_ID_VARIABLES = {
        ROCSHMEM_EMU_JOB_ID, "PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid", "OMPI_MCA_orte_ess_jobid",
        "SLURM_JOB_ID", "TORCHELASTIC_RUN_ID"
    };

    private static final System.Logger LOG = System.getLogger(LaunchEnvironment.class.getName());

    /** How {@link #secret()} was obtained; anything but ENVIRONMENT is guessable. */
    public enum SecretSource { ENVIRONMENT, DERIVED_FROM_JOB_ID, DERIVED_FROM_ADDRESS_ONLY }

    public LaunchEnvironment {
        if (worldSize < 1) {
            throw new BootstrapException("WORLD_SIZE=" + worldSize + " must be >= 1");
        }
        if (rank < 0 || rank >= worldSize) {
            throw new BootstrapException("RANK=" + rank + " must be in [0, WORLD_SIZE=" + worldSize + ")");
        }
        if (localWorldSize < 1 || localWorldSize > worldSize) {
            throw new BootstrapException("LOCAL_WORLD_SIZE=" + localWorldSize
                    + " must be in [1, WORLD_SIZE=" + worldSize + "]");
        }
        if (localRank < 0 || localRank >= localWorldSize) {
            throw new BootstrapException("LOCAL_RANK=" + localRank
                    + " must be in [0, LOCAL_WORLD_SIZE=" + localWorldSize + ")");
        }
        if (masterPort < 1 || masterPort > 65535) {
            throw new BootstrapException("MASTER_PORT=" + masterPort + " must be in [1, 65535]");
        }
        if (masterAddr == null || masterAddr.isBlank()) {
            throw new BootstrapException("MASTER_ADDR must not be empty");
        }
        if (secret == null || secret.isEmpty()) {
            throw new BootstrapException("the bootstrap secret must not be empty");
        }
        if (bootstrapTimeout == null || bootstrapTimeout.isNegative() || bootstrapTimeout.isZero()) {
            throw new BootstrapException("bootstrap timeout must be positive, got " + bootstrapTimeout);
        }
    }

    /** Reads the real process environment. */
    public static LaunchEnvironment fromSystemEnvironment() {
        return from(System.getenv());
    }

    /** Reads the given variables (tests pass a map instead of mutating the process environment). */
    public static LaunchEnvironment from(Map<String, String> environment) {
        Map<String, String> env = withSlurmNames(environment);
        int rank = requiredInt(env, RANK, OMPI_COMM_WORLD_RANK);
        int worldSize = requiredInt(env, WORLD_SIZE, OMPI_COMM_WORLD_SIZE);
        int localRank = optionalInt(env, rank, LOCAL_RANK, OMPI_COMM_WORLD_LOCAL_RANK);
        int localWorldSize = optionalInt(env, worldSize, LOCAL_WORLD_SIZE, OMPI_COMM_WORLD_LOCAL_SIZE);
        String masterAddr = firstSet(env, MASTER_ADDR, ROCSHMEM_MASTER_ADDR);
        if (masterAddr == null) {
            masterAddr = DEFAULT_MASTER_ADDR;
        }
        int masterPort = optionalInt(env, DEFAULT_MASTER_PORT, MASTER_PORT, ROCSHMEM_MASTER_PORT);
        Duration timeout = timeout(env);

        String secret = env.get(ROCSHMEM_BOOTSTRAP_SECRET);
        SecretSource source = SecretSource.ENVIRONMENT;
        if (secret == null || secret.isEmpty()) {
            String jobId = firstSet(env, JOB_ID_VARIABLES);
            source = jobId == null ? SecretSource.DERIVED_FROM_ADDRESS_ONLY : SecretSource.DERIVED_FROM_JOB_ID;
            secret = deriveSecret(jobId, masterAddr, masterPort, worldSize);
            if (!isLoopback(masterAddr)) {
                throw new BootstrapException(ROCSHMEM_BOOTSTRAP_SECRET + " must be set when the rendezvous leaves"
                        + " this machine (MASTER_ADDR=" + masterAddr + "): a secret derived from the job id is"
                        + " guessable by anyone on the network. Export the same random value on every rank, e.g."
                        + " ROCSHMEM_BOOTSTRAP_SECRET=$(openssl rand -hex 16) in the job script.");
            }
            LOG.log(System.Logger.Level.WARNING, "{0} is not set; using a secret derived from {1}. It keeps "
                    + "unrelated jobs apart but is guessable: set {0} to a random value for real protection.",
                    ROCSHMEM_BOOTSTRAP_SECRET, jobId == null ? "MASTER_ADDR/MASTER_PORT/WORLD_SIZE" : "the job id");
        }
        return new LaunchEnvironment(rank, worldSize, localRank, localWorldSize, masterAddr, masterPort,
                secret, source, timeout);
    }

    /** Whether {@code host} names this machine's loopback interface (a name is resolved; unknown is "no"). */
    static boolean isLoopback(String host) {
        try {
            for (java.net.InetAddress address : java.net.InetAddress.getAllByName(host)) {
                if (!address.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /** True if this process was started by a launcher this class understands (Launcher, torchrun, mpirun, srun). */
    public static boolean isLaunched(Map<String, String> env) {
        return env.containsKey(RANK) || env.containsKey(OMPI_COMM_WORLD_RANK) || SlurmStep.applies(env);
    }

    /** Inside an srun step, Slurm's values stand in for the torchrun names the process environment lacks. */
    private static Map<String, String> withSlurmNames(Map<String, String> env) {
        if (env.containsKey(OMPI_COMM_WORLD_RANK)) {
            return env; // mpirun, even inside a Slurm allocation: MPI's numbering
        }
        Map<String, String> slurm = SlurmStep.torchrunNames(env);
        if (slurm.isEmpty()) {
            return env;
        }
        if (env.containsKey(ROCSHMEM_MASTER_ADDR)) {
            slurm.remove(MASTER_ADDR);
        }
        if (env.containsKey(ROCSHMEM_MASTER_PORT)) {
            slurm.remove(MASTER_PORT);
        }
        Map<String, String> merged = new java.util.HashMap<>(slurm);
        merged.putAll(env); // an explicit RANK, MASTER_ADDR... wins over what Slurm implies
        return merged;
    }

    /** A single-process job (rank 0 of 1), for programs started without any launcher. */
    public static LaunchEnvironment singleProcess(String secret) {
        return new LaunchEnvironment(0, 1, 0, 1, DEFAULT_MASTER_ADDR, DEFAULT_MASTER_PORT, secret,
                SecretSource.ENVIRONMENT, DEFAULT_BOOTSTRAP_TIMEOUT);
    }

    public byte[] secretBytes() {
        return secret.getBytes(StandardCharsets.UTF_8);
    }

    /** Redacts the secret: environments end up in logs and assertion messages. */
    @Override
    public String toString() {
        return "LaunchEnvironment[rank=" + rank + ", worldSize=" + worldSize + ", localRank=" + localRank
                + ", localWorldSize=" + localWorldSize + ", master=" + masterAddr + ":" + masterPort
                + ", secret=<" + secretSource + ">, bootstrapTimeout=" + bootstrapTimeout + "]";
    }

    static String deriveSecret(String jobId, String masterAddr, int masterPort, int worldSize) {
        String material = "rocshmem-derived-secret-v1|" + jobId + "|" + masterAddr + "|" + masterPort + "|" + worldSize;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(material.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime provides SHA-256", e);
        }
    }

    private static Duration timeout(Map<String, String> env) {
        String text = env.get(ROCSHMEM_BOOTSTRAP_TIMEOUT);
        if (text == null || text.isBlank()) {
            return DEFAULT_BOOTSTRAP_TIMEOUT;
        }
        double seconds;
        try {
            seconds = Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new BootstrapException(ROCSHMEM_BOOTSTRAP_TIMEOUT + "=" + text + " is not a number of seconds");
        }
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new BootstrapException(ROCSHMEM_BOOTSTRAP_TIMEOUT + "=" + text + " must be a positive number of seconds");
        }
        if (seconds > MAX_BOOTSTRAP_TIMEOUT_SECONDS) {
            throw new BootstrapException(ROCSHMEM_BOOTSTRAP_TIMEOUT + "=" + text + " is larger than the limit of "
                    + MAX_BOOTSTRAP_TIMEOUT_SECONDS + " seconds (one day; the emulator has the same limit)");
        }
        return Duration.ofMillis(Math.max(1, Math.round(seconds * 1000)));
    }

    private static int requiredInt(Map<String, String> env, String... names) {
        String name = firstSetName(env, names);
        if (name == null) {
            throw new BootstrapException(String.join(" and ", names) + " are not set: start the program with "
                    + "org.rocshmem.api.launch.Launcher, mpirun, or set " + names[0] + " yourself");
        }
        return parseInt(name, env.get(name));
    }

    private static int optionalInt(Map<String, String> env, int fallback, String... names) {
        String name = firstSetName(env, names);
        return name == null ? fallback : parseInt(name, env.get(name));
    }

    private static int parseInt(String name, String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new BootstrapException(name + "=" + text + " is not an integer");
        }
    }

    private static String firstSet(Map<String, String> env, String... names) {
        String name = firstSetName(env, names);
        return name == null ? null : env.get(name).trim();
    }

    private static String firstSetName(Map<String, String> env, String... names) {
        for (String name : names) {
            String value = env.get(name);
            if (value != null && !value.isBlank()) {
                return name;
            }
        }
        return null;
    }
}
