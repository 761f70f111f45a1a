package org.rocshmem.api.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.api.testing.Pe;

/** The rendezvous across real processes, configured only by the launcher's environment. */
class TcpUniqueIdExchangeMultiJvmTest {

    @Test
    @MultiPe(value = 2, timeoutSeconds = 60)
    void everyJvmGetsTheIdCreatedByRankZero() throws Exception {
        LaunchEnvironment env = LaunchEnvironment.fromSystemEnvironment();
        byte[] id = new TcpUniqueIdExchange(env).exchange(env.rank(), env.worldSize(), () -> {
            if (env.rank() != 0) {
                throw new AssertionError("rank " + env.rank() + " must not create the id");
            }
            byte[] fresh = new byte[128];
            new SecureRandom().nextBytes(fresh);
            return fresh;
        });
        assertEquals(128, id.length);

        // Compare through the harness's shared directory, independent of the code under test.
        Pe.publish("id", HexFormat.of().formatHex(id));
        List<String> all = Pe.collect("id", Duration.ofSeconds(30));
        assertEquals(1, Set.copyOf(all).size(), "ids differ between PEs: " + all);
    }
}
