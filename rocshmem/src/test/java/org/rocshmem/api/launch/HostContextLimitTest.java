package org.rocshmem.api.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 21 item 2: the API never takes a host context past ROCSHMEM_MAX_NUM_HOST_CONTEXTS (which real rocSHMEM 3.x
 * would not report): neither one the program asks for nor the session's context of the host collectives; each
 * refusal names the variable, and a collective on a view with the program's context needs no hidden one.
 */
@Tag("emu")
class HostContextLimitTest {
    @Test
    @Timeout(90)
    void noContextPastThePool() throws Exception {
        LaunchResult result = PeJob.builder(HostContextsPe.class).nproc(2).jvmArgs(PeJob.inheritedSystemProperties())
                .env("ROCSHMEM_MAX_NUM_HOST_CONTEXTS", "2").timeout(Duration.ofSeconds(60)).quiet().build().run();
        for (PeResult pe : result.pes()) {
            String out = String.join("\n", pe.stdout()) + "\n" + String.join("\n", pe.stderr());
            assertEquals(0, pe.exitStatus(), out);
            List<String> lines = pe.stdout();
            String refusal = "rocSHMEM allows ROCSHMEM_MAX_NUM_HOST_CONTEXTS=2 host context(s), its own default context"
                    + " included, and 2 are in use; creating ";
            assertTrue(lines.get(0).startsWith("second context: " + refusal + "a context for createContext("), out);
            assertTrue(lines.get(1).startsWith("collective without context: " + refusal + "the session's context"), out);
            assertTrue(lines.get(1).endsWith("Set ROCSHMEM_MAX_NUM_HOST_CONTEXTS=3 or more in the environment of every"
                    + " PE"), out);
            assertEquals("sum on my context 3", lines.get(2), out);
            assertEquals("sum on the session's context 3", lines.get(3), out);
        }
    }
}
