package org.rocshmem.api.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The library API used by the JUnit harness: per-PE exit statuses and captured, unprefixed output. */
@Timeout(60)
class PeJobTest {

    @Test
    void childrenSeeTheLaunchEnvironment() throws Exception {
        LaunchResult result = PeJob.builder(PeProgram.class).nproc(2).args("env").env("EXTRA_VAR", "x")
                .quiet().build().run();

        assertTrue(result.succeeded(), result.reason());
        Map<String, String> pe0 = variables(result.pe(0));
        Map<String, String> pe1 = variables(result.pe(1));
        assertEquals("0", pe0.get("RANK"));
        assertEquals("1", pe1.get("RANK"));
        assertEquals("1", pe1.get("LOCAL_RANK"));
        for (Map<String, String> pe : List.of(pe0, pe1)) {
            assertEquals("2", pe.get("WORLD_SIZE"));
            assertEquals("2", pe.get("LOCAL_WORLD_SIZE"));
            assertEquals("1", pe.get("GROUP_WORLD_SIZE"), "one node by default");
            assertEquals("0", pe.get("GROUP_RANK"));
            assertEquals("127.0.0.1", pe.get("MASTER_ADDR"));
            int port = Integer.parseInt(pe.get("MASTER_PORT"));
            assertTrue(port > 0 && port < 65536, "port " + port);
            assertTrue(pe.get("ROCSHMEM_EMU_JOB_ID").matches("[0-9a-f]{32}"), pe.get("ROCSHMEM_EMU_JOB_ID"));
            assertTrue(pe.get("ROCSHMEM_BOOTSTRAP_SECRET").matches("[0-9a-f]{64}"));
        }
        for (String shared : List.of("MASTER_PORT", "ROCSHMEM_EMU_JOB_ID", "ROCSHMEM_BOOTSTRAP_SECRET")) {
            assertEquals(pe0.get(shared), pe1.get(shared), shared + " must be the same for all PEs of a job");
        }
        assertNotEquals(result.pe(0).pid(), result.pe(1).pid());
    }

    @Test
    void nnodesGivesEachPeItsNodeAndPlaceOnIt() throws Exception {
        LaunchResult result = PeJob.builder(PeProgram.class).nproc(4).nnodes(2).args("env").quiet().build().run();

        assertTrue(result.succeeded(), result.reason());
        for (int rank = 0; rank < 4; rank++) {
            Map<String, String> pe = variables(result.pe(rank));
            assertEquals(Integer.toString(rank), pe.get("RANK"));
            assertEquals("4", pe.get("WORLD_SIZE"));
            assertEquals(Integer.toString(rank % 2), pe.get("LOCAL_RANK"), "rank " + rank);
            assertEquals("2", pe.get("LOCAL_WORLD_SIZE"));
            assertEquals(Integer.toString(rank / 2), pe.get("GROUP_RANK"), "rank " + rank);
            assertEquals("2", pe.get("GROUP_WORLD_SIZE"));
        }
    }

    @Test
    void nnodesMustDivideNproc() {
        PeJob.Builder builder = PeJob.builder(PeProgram.class).nproc(6).nnodes(4);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, builder::build);
        assertEquals("6 PEs cannot be split into 4 nodes of equal size (nproc must be a multiple of nnodes)",
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PeJob.builder(PeProgram.class).nnodes(0));
    }

    @Test
    void eachLaunchGetsFreshJobIdAndSecret() throws Exception {
        PeJob job = PeJob.builder(PeProgram.class).nproc(1).args("env").quiet().build();
        Map<String, String> first = variables(job.run().pe(0));
        Map<String, String> second = variables(job.run().pe(0));
        assertNotEquals(first.get("ROCSHMEM_EMU_JOB_ID"), second.get("ROCSHMEM_EMU_JOB_ID"));
        assertNotEquals(first.get("ROCSHMEM_BOOTSTRAP_SECRET"), second.get("ROCSHMEM_BOOTSTRAP_SECRET"));
    }

    @Test
    void reportsPerPeStatusesAndWhoWasStopped() throws Exception {
        LaunchResult result = PeJob.builder(PeProgram.class).nproc(2).args("fail-on", "0", "7")
                .stopGrace(Duration.ofSeconds(1)).quiet().build().run();

        assertEquals(7, result.exitStatus());
        assertEquals(0, result.failedRank());
        assertFalse(result.timedOut());
        assertEquals(7, result.pe(0).exitStatus());
        assertFalse(result.pe(0).stoppedByLauncher());
        assertTrue(result.pe(1).stoppedByLauncher());
        assertNotEquals(0, result.pe(1).exitStatus());
        assertTrue(result.pe(1).stdout().get(0).startsWith("pid="), "captured lines carry no prefix");
    }

    @Test
    void startExposesPidsWhileRunningAndCloseStopsEverything() throws Exception {
        List<Long> pids;
        try (Launch launch = PeJob.builder(PeProgram.class).nproc(2).args("sleep").quiet().build().start()) {
            pids = launch.pids();
            assertEquals(2, Set.copyOf(pids).size());
            assertTrue(pids.stream().allMatch(pid -> ProcessHandle.of(pid).isPresent()));
        }
        LauncherSupervisionTest.assertNoneAlive(pids);
    }

    private static Map<String, String> variables(PeResult pe) {
        return pe.stdout().stream().filter(line -> line.contains("="))
                .map(line -> line.split("=", 2))
                .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1], (a, b) -> b, HashMap::new));
    }
}
