package org.rocshmem.api.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** srun's variables map to the torchrun names the way OMPI_COMM_WORLD_* do, inside a job step only. */
class SlurmStepTest {

    private static Map<String, String> env(String... keyValues) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            env.put(keyValues[i], keyValues[i + 1]);
        }
        return env;
    }

    /** What srun -N 3 -n 7 gives the task with global rank 6 (the last node runs one task). */
    private static Map<String, String> srunTask() {
        return env("SLURM_PROCID", "6", "SLURM_NTASKS", "7", "SLURM_LOCALID", "0", "SLURM_NODEID", "2",
                "SLURM_STEP_ID", "0", "SLURM_JOB_ID", "4711", "SLURM_STEP_NODELIST", "gpu[07-08],big3",
                "SLURM_JOB_NODELIST", "gpu[07-08],big3", "SLURM_STEP_TASKS_PER_NODE", "3(x2),1",
                "ROCSHMEM_BOOTSTRAP_SECRET", "s");
    }

    @Test
    void anSrunTaskIsRankWorldLocalAndMaster() {
        LaunchEnvironment e = LaunchEnvironment.from(srunTask());
        assertEquals(6, e.rank());
        assertEquals(7, e.worldSize());
        assertEquals(0, e.localRank());
        assertEquals(1, e.localWorldSize(), "node 2 runs 1 of the 3(x2),1 tasks");
        assertEquals("gpu07", e.masterAddr(), "the first host of the step's node list");
        assertEquals(29500 + Math.floorMod(4711L * 31, 20000), e.masterPort());
        assertTrue(LaunchEnvironment.isLaunched(srunTask()));
    }

    @Test
    void explicitValuesAndMpiWinOverSlurm() {
        Map<String, String> explicit = srunTask();
        explicit.put("MASTER_ADDR", "10.1.2.3");
        explicit.put("ROCSHMEM_MASTER_PORT", "5555");
        explicit.put("SLURM_NTASKS_PER_NODE", "3");
        LaunchEnvironment e = LaunchEnvironment.from(explicit);
        assertEquals("10.1.2.3", e.masterAddr());
        assertEquals(5555, e.masterPort());
        assertEquals(3, e.localWorldSize(), "SLURM_NTASKS_PER_NODE comes first");

        Map<String, String> mpirunInsideTheAllocation = srunTask();
        mpirunInsideTheAllocation.putAll(env("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "2"));
        LaunchEnvironment m = LaunchEnvironment.from(mpirunInsideTheAllocation);
        assertEquals(1, m.rank());
        assertEquals(2, m.worldSize());
    }

    @Test
    void aBatchScriptsOwnShellIsNotAStepTask() {
        Map<String, String> batch = env("SLURM_PROCID", "0", "SLURM_NTASKS", "4", "SLURM_JOB_ID", "9");
        assertFalse(SlurmStep.applies(batch));
        assertFalse(LaunchEnvironment.isLaunched(batch));
        assertTrue(SlurmStep.torchrunNames(batch).isEmpty());
    }

    @Test
    void hostListsAndTaskCounts() {
        assertEquals("vm", SlurmStep.firstHost("vm"));
        assertEquals("node01", SlurmStep.firstHost("node[01-04,07],gpu5"));
        assertEquals("rack1-n07", SlurmStep.firstHost("rack[1-2]-n[07,09],gpu5"));
        assertEquals("a", SlurmStep.firstHost("a,b[1-3]"));
        assertEquals("2", SlurmStep.tasksOnNode("2", "0"));
        assertEquals("4", SlurmStep.tasksOnNode("4(x2),2", "1"));
        assertEquals("2", SlurmStep.tasksOnNode("4(x2),2", "2"));
        assertNull(SlurmStep.tasksOnNode("4(x2),2", "3"));
        assertNull(SlurmStep.tasksOnNode("garbage", "0"));
    }
}
