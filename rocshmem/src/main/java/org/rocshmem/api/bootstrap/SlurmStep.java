package org.rocshmem.api.bootstrap;

import java.util.HashMap;
import java.util.Map;

/**
 * The torchrun names of a process started by {@code srun}, derived from Slurm's variables, so that
 * {@code srun -n N java ...} needs no wrapper (the way {@code mpirun}'s OMPI_COMM_WORLD_* are mapped).
 *
 * <p>Only inside a job step (SLURM_STEP_ID set, as srun sets it): a batch script's own shell also carries
 * SLURM_PROCID=0 and SLURM_NTASKS, and must not take itself for rank 0 of the step.
 * <ul>
 * <li>RANK = SLURM_PROCID, WORLD_SIZE = SLURM_NTASKS (else SLURM_STEP_NUM_TASKS), LOCAL_RANK = SLURM_LOCALID;</li>
 * <li>LOCAL_WORLD_SIZE = SLURM_NTASKS_PER_NODE, else this node's entry (SLURM_NODEID) of
 *     SLURM_STEP_TASKS_PER_NODE / SLURM_TASKS_PER_NODE ({@code "2(x3),1"} means 2,2,2,1);</li>
 * <li>MASTER_ADDR = the first host of SLURM_STEP_NODELIST / SLURM_JOB_NODELIST ({@code "node[01-04],gpu5"} gives
 *     {@code node01}); it must resolve to an address the other nodes reach;</li>
 * <li>MASTER_PORT = 29500 + a value derived from SLURM_JOB_ID and SLURM_STEP_ID, so two steps on one node do not
 *     collide.</li>
 * </ul>
 */
final class SlurmStep {
    static final String SLURM_PROCID = "SLURM_PROCID";
    static final String SLURM_STEP_ID = "SLURM_STEP_ID";

    private SlurmStep() {
    }

    static boolean applies(Map<String, String> env) {
        return isSet(env, SLURM_PROCID) && isSet(env, SLURM_STEP_ID);
    }

    /** RANK, WORLD_SIZE, ... as Slurm gives them; empty outside an srun step. Unknown values are left out. */
    static Map<String, String> torchrunNames(Map<String, String> env) {
        Map<String, String> names = new HashMap<>();
        if (!applies(env)) {
            return names;
        }
        names.put(LaunchEnvVars.RANK, env.get(SLURM_PROCID).trim());
        String tasks = first(env, "SLURM_NTASKS", "SLURM_STEP_NUM_TASKS");
        if (tasks != null) {
            names.put(LaunchEnvVars.WORLD_SIZE, tasks);
        }
        String localId = first(env, "SLURM_LOCALID");
        if (localId != null) {
            names.put(LaunchEnvVars.LOCAL_RANK, localId);
        }
        String perNode = first(env, "SLURM_NTASKS_PER_NODE");
        if (perNode == null) {
            perNode = tasksOnNode(first(env, "SLURM_STEP_TASKS_PER_NODE", "SLURM_TASKS_PER_NODE"),
                    first(env, "SLURM_NODEID"));
        }
        if (perNode != null) {
            names.put(LaunchEnvVars.LOCAL_WORLD_SIZE, perNode);
        }
        String nodes = first(env, "SLURM_STEP_NODELIST", "SLURM_JOB_NODELIST");
        if (nodes != null) {
            names.put(LaunchEnvVars.MASTER_ADDR, firstHost(nodes));
        }
        String job = first(env, "SLURM_JOB_ID");
        if (job != null && job.matches("\\d+")) {
            long step = parseOr(first(env, SLURM_STEP_ID), 0);
            names.put(LaunchEnvVars.MASTER_PORT, String.valueOf(29500 + Math.floorMod(Long.parseLong(job) * 31 + step,
                    20000)));
        }
        return names;
    }

    /** The count of this node in Slurm's compressed list: "2(x3),1" with node 3 gives "1". */
    static String tasksOnNode(String list, String nodeId) {
        if (list == null || nodeId == null || !nodeId.matches("\\d+")) {
            return null;
        }
        int wanted = Integer.parseInt(nodeId);
        int node = 0;
        for (String part : list.split(",")) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)(?:\\(x(\\d+)\\))?").matcher(part.trim());
            if (!m.matches()) {
                return null;
            }
            node += m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
            if (wanted < node) {
                return m.group(1);
            }
        }
        return null;
    }

    /** The first host of a Slurm host list: "rack[1-2]-n[07,09],gpu5" gives "rack1-n07". */
    static String firstHost(String hostList) {
        StringBuilder first = new StringBuilder();
        int depth = 0;
        StringBuilder group = new StringBuilder();
        for (char c : hostList.trim().toCharArray()) {
            if (c == '[') {
                depth++;
                group.setLength(0);
            } else if (c == ']') {
                depth--;
                String range = group.toString().split(",")[0];
                first.append(range.split("-")[0]);
            } else if (depth > 0) {
                group.append(c);
            } else if (c == ',') {
                break;
            } else {
                first.append(c);
            }
        }
        return first.toString();
    }

    private static String first(Map<String, String> env, String... names) {
        for (String name : names) {
            if (isSet(env, name)) {
                return env.get(name).trim();
            }
        }
        return null;
    }

    private static boolean isSet(Map<String, String> env, String name) {
        String value = env.get(name);
        return value != null && !value.isBlank();
    }

    private static long parseOr(String text, long fallback) {
        return text != null && text.matches("\\d+") ? Long.parseLong(text) : fallback;
    }
}
