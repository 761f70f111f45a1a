package org.rocshmem.api.bootstrap;

/**
 * Names of the environment variables shared by the launcher (which sets them) and
 * {@link LaunchEnvironment} (which reads them). The torchrun names are used so that existing tooling works.
 */
public final class LaunchEnvVars {
    public static final String RANK = "RANK";
    public static final String WORLD_SIZE = "WORLD_SIZE";
    public static final String LOCAL_RANK = "LOCAL_RANK";
    public static final String LOCAL_WORLD_SIZE = "LOCAL_WORLD_SIZE";
    /** Set by the launcher only (torchrun's names): the index of this PE's (simulated) node and the node count. */
    public static final String GROUP_RANK = "GROUP_RANK";
    public static final String GROUP_WORLD_SIZE = "GROUP_WORLD_SIZE";
    public static final String MASTER_ADDR = "MASTER_ADDR";
    public static final String MASTER_PORT = "MASTER_PORT";

    /** Fallbacks for MASTER_ADDR/MASTER_PORT when the job is not started by a torchrun-style launcher. */
    public static final String ROCSHMEM_MASTER_ADDR = "ROCSHMEM_MASTER_ADDR";
    public static final String ROCSHMEM_MASTER_PORT = "ROCSHMEM_MASTER_PORT";

    /** Random per-launch id; the CPU emulator uses it to name the shared-memory objects of one job. */
    public static final String ROCSHMEM_EMU_JOB_ID = "ROCSHMEM_EMU_JOB_ID";
    /** Shared secret authenticating the TCP rendezvous (never sent over the wire). */
    public static final String ROCSHMEM_BOOTSTRAP_SECRET = "ROCSHMEM_BOOTSTRAP_SECRET";
    /** Rendezvous timeout in seconds (decimal allowed). */
    public static final String ROCSHMEM_BOOTSTRAP_TIMEOUT = "ROCSHMEM_BOOTSTRAP_TIMEOUT";
    /** Pid of the launcher JVM; a PE started by it ends itself when that process is gone. */
    public static final String ROCSHMEM_LAUNCHER_PID = "ROCSHMEM_LAUNCHER_PID";

    /** Open MPI's per-process variables, mapped when the torchrun names are absent ({@code mpirun -n N java ...}). */
    public static final String OMPI_COMM_WORLD_RANK = "OMPI_COMM_WORLD_RANK";
    public static final String OMPI_COMM_WORLD_SIZE = "OMPI_COMM_WORLD_SIZE";
    public static final String OMPI_COMM_WORLD_LOCAL_RANK = "OMPI_COMM_WORLD_LOCAL_RANK";
    public static final String OMPI_COMM_WORLD_LOCAL_SIZE = "OMPI_COMM_WORLD_LOCAL_SIZE";

    private LaunchEnvVars() {
    }
}
