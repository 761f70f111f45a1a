package org.rocshmem.api.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LaunchEnvironmentTest {

    private static Map<String, String> env(String... keyValues) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            env.put(keyValues[i], keyValues[i + 1]);
        }
        return env;
    }

    @Test
    void readsLauncherVariables() {
        LaunchEnvironment e = LaunchEnvironment.from(env("RANK", "3", "WORLD_SIZE", "8", "LOCAL_RANK", "1",
                "LOCAL_WORLD_SIZE", "4", "MASTER_ADDR", "10.0.0.7", "MASTER_PORT", "4242",
                "ROCSHMEM_BOOTSTRAP_SECRET", "s3cret", "ROCSHMEM_BOOTSTRAP_TIMEOUT", "2.5"));
        assertEquals(new LaunchEnvironment(3, 8, 1, 4, "10.0.0.7", 4242, "s3cret",
                LaunchEnvironment.SecretSource.ENVIRONMENT, Duration.ofMillis(2500)), e);
    }

    @Test
    void mapsOpenMpiVariablesWhenLauncherOnesAreAbsent() {
        LaunchEnvironment e = LaunchEnvironment.from(env("OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "4",
                "OMPI_COMM_WORLD_LOCAL_RANK", "0", "OMPI_COMM_WORLD_LOCAL_SIZE", "2", "ROCSHMEM_BOOTSTRAP_SECRET", "x"));
        assertEquals(2, e.rank());
        assertEquals(4, e.worldSize());
        assertEquals(0, e.localRank());
        assertEquals(2, e.localWorldSize());
    }

    @Test
    void launcherVariablesWinOverOpenMpiOnes() {
        LaunchEnvironment e = LaunchEnvironment.from(env("RANK", "1", "OMPI_COMM_WORLD_RANK", "0",
                "WORLD_SIZE", "2", "OMPI_COMM_WORLD_SIZE", "5", "ROCSHMEM_BOOTSTRAP_SECRET", "x"));
        assertEquals(1, e.rank());
        assertEquals(2, e.worldSize());
    }

    @Test
    void defaultsAddressPortTimeoutAndLocalRanks() {
        LaunchEnvironment e = LaunchEnvironment.from(env("RANK", "1", "WORLD_SIZE", "3", "ROCSHMEM_BOOTSTRAP_SECRET", "x"));
        assertEquals("127.0.0.1", e.masterAddr());
        assertEquals(29500, e.masterPort());
        assertEquals(Duration.ofSeconds(60), e.bootstrapTimeout());
        assertEquals(1, e.localRank(), "single node: LOCAL_RANK defaults to RANK");
        assertEquals(3, e.localWorldSize());
    }

    @Test
    void rocshmemMasterVariablesAreTheFallbackForAddressAndPort() {
        LaunchEnvironment e = LaunchEnvironment.from(env("RANK", "0", "WORLD_SIZE", "1", "ROCSHMEM_BOOTSTRAP_SECRET",
                "x", "ROCSHMEM_MASTER_ADDR", "node7", "ROCSHMEM_MASTER_PORT", "31337"));
        assertEquals("node7", e.masterAddr());
        assertEquals(31337, e.masterPort());
    }

    @Test
    void derivesSecretFromJobIdWhenUnsetAndSaysSo() {
        Map<String, String> job1 = env("RANK", "0", "WORLD_SIZE", "2", "PMIX_NAMESPACE", "prterun-host-123@1");
        Map<String, String> job2 = env("RANK", "0", "WORLD_SIZE", "2", "PMIX_NAMESPACE", "prterun-host-456@1");
        LaunchEnvironment first = LaunchEnvironment.from(job1);
        assertEquals(LaunchEnvironment.SecretSource.DERIVED_FROM_JOB_ID, first.secretSource());
        assertEquals(first.secret(), LaunchEnvironment.from(job1).secret(), "all ranks of a job derive the same");
        assertNotEquals(first.secret(), LaunchEnvironment.from(job2).secret(), "other jobs derive another");
        assertEquals(LaunchEnvironment.SecretSource.DERIVED_FROM_ADDRESS_ONLY,
                LaunchEnvironment.from(env("RANK", "0", "WORLD_SIZE", "2")).secretSource());
    }

    @Test
    void aDerivedSecretIsRefusedOffLoopback() {
        BootstrapException e = assertThrows(BootstrapException.class, () -> LaunchEnvironment.from(env("RANK", "0",
                "WORLD_SIZE", "2", "MASTER_ADDR", "192.0.2.10", "SLURM_JOB_ID", "77")));
        assertTrue(e.getMessage().contains("ROCSHMEM_BOOTSTRAP_SECRET must be set when the rendezvous leaves this"
                + " machine (MASTER_ADDR=192.0.2.10)"), e.getMessage());
        assertEquals("192.0.2.10", LaunchEnvironment.from(env("RANK", "0", "WORLD_SIZE", "2", "MASTER_ADDR",
                "192.0.2.10", "ROCSHMEM_BOOTSTRAP_SECRET", "set")).masterAddr(), "an explicit secret is accepted");
        assertTrue(LaunchEnvironment.isLoopback("127.0.0.1") && LaunchEnvironment.isLoopback("localhost"));
        assertFalse(LaunchEnvironment.isLoopback("192.0.2.10"));
    }

    @Test
    void toStringNeverShowsTheSecret() {
        LaunchEnvironment e = LaunchEnvironment.from(env("RANK", "0", "WORLD_SIZE", "1",
                "ROCSHMEM_BOOTSTRAP_SECRET", "do-not-print-me"));
        assertFalse(e.toString().contains("do-not-print-me"), e.toString());
    }

    @Test
    void rejectsInvalidValuesWithMessagesNamingTheVariable() {
        assertMessage("RANK and OMPI_COMM_WORLD_RANK are not set", env("WORLD_SIZE", "2"));
        assertMessage("WORLD_SIZE and OMPI_COMM_WORLD_SIZE are not set", env("RANK", "0"));
        assertMessage("RANK=abc is not an integer", env("RANK", "abc", "WORLD_SIZE", "2"));
        assertMessage("OMPI_COMM_WORLD_SIZE=2.0 is not an integer", env("RANK", "0", "OMPI_COMM_WORLD_SIZE", "2.0"));
        assertMessage("RANK=2 must be in [0, WORLD_SIZE=2)", env("RANK", "2", "WORLD_SIZE", "2", "X", "y"));
        assertMessage("WORLD_SIZE=0 must be >= 1", env("RANK", "0", "WORLD_SIZE", "0"));
        assertMessage("LOCAL_RANK=3 must be in [0, LOCAL_WORLD_SIZE=2)",
                env("RANK", "0", "WORLD_SIZE", "4", "LOCAL_RANK", "3", "LOCAL_WORLD_SIZE", "2"));
        assertMessage("MASTER_PORT=0 must be in [1, 65535]", env("RANK", "0", "WORLD_SIZE", "1", "MASTER_PORT", "0"));
        assertMessage("MASTER_PORT=http is not an integer",
                env("RANK", "0", "WORLD_SIZE", "1", "MASTER_PORT", "http"));
        assertMessage("ROCSHMEM_BOOTSTRAP_TIMEOUT=-1 must be a positive number of seconds",
                env("RANK", "0", "WORLD_SIZE", "1", "ROCSHMEM_BOOTSTRAP_TIMEOUT", "-1"));
        assertMessage("ROCSHMEM_BOOTSTRAP_TIMEOUT=1e300 is larger than the limit of 86400 seconds",
                env("RANK", "0", "WORLD_SIZE", "1", "ROCSHMEM_BOOTSTRAP_TIMEOUT", "1e300"));
        assertMessage("ROCSHMEM_BOOTSTRAP_TIMEOUT=soon is not a number of seconds",
                env("RANK", "0", "WORLD_SIZE", "1", "ROCSHMEM_BOOTSTRAP_TIMEOUT", "soon"));
    }

    private static void assertMessage(String expected, Map<String, String> env) {
        env.putIfAbsent("ROCSHMEM_BOOTSTRAP_SECRET", "x");
        BootstrapException e = assertThrows(BootstrapException.class, () -> LaunchEnvironment.from(env));
        assertTrue(e.getMessage().contains(expected), "expected '" + expected + "' in: " + e.getMessage());
    }
}
