package org.rocshmem.api.launch;

import java.util.List;

/**
 * Tiny PE programs used as launcher children in tests, selected by the first argument:
 * <ul>
 *   <li>{@code env}: prints the launcher variables and its pid, exits 0</li>
 *   <li>{@code fail-on RANK STATUS}: every PE prints its pid; PE RANK exits STATUS after the others are up
 *       (it waits for a short delay); the other PEs sleep forever</li>
 *   <li>{@code sleep}: prints its pid and sleeps forever</li>
 *   <li>{@code grandchild}: starts {@code sleep 600}, prints both pids, sleeps forever</li>
 *   <li>{@code streams}: writes "out-line" to stdout and "err-line" to stderr, exits 0</li>
 * </ul>
 */
public final class PeProgram {
    static final List<String> ENV_NAMES = List.of("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE",
            "GROUP_RANK", "GROUP_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT", "ROCSHMEM_EMU_JOB_ID", "ROCSHMEM_BOOTSTRAP_SECRET");

    public static void main(String[] args) throws Exception {
        int rank = Integer.parseInt(System.getenv().getOrDefault("RANK", "-1"));
        System.out.println("pid=" + ProcessHandle.current().pid());
        switch (args[0]) {
            case "env" -> ENV_NAMES.forEach(name -> System.out.println(name + "=" + System.getenv(name)));
            case "fail-on" -> {
                if (rank == Integer.parseInt(args[1])) {
                    Thread.sleep(1500); // let the sibling JVMs start, so the launcher really has to stop them
                    System.exit(Integer.parseInt(args[2]));
                }
                Thread.sleep(Long.MAX_VALUE);
            }
            case "sleep" -> Thread.sleep(Long.MAX_VALUE);
            case "grandchild" -> {
                Process sleeper = new ProcessBuilder("sleep", "600").start();
                System.out.println("grandchild=" + sleeper.pid());
                Thread.sleep(Long.MAX_VALUE);
            }
            case "streams" -> {
                System.out.println("out-line");
                System.err.println("err-line");
            }
            default -> throw new IllegalArgumentException("unknown program " + args[0]);
        }
    }
}
