package org.rocshmem.api.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 26 item 1: host reductions and contexts work with no setting at all, because init provisions the session's
 * own context (HostContextProvisioning); InitOptions.hostContexts(n) asks for more, and an argument error comes
 * before a pool error. The PEs run without ROCSHMEM_MAX_NUM_HOST_CONTEXTS (the PE program checks it).
 */
@Tag("emu")
class DefaultHostContextsTest {
    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {2, 3, 4, 5, 6})
    @Timeout(180)
    void reductionsAndContextsNeedNoSetting(int pes) throws Exception {
        LaunchResult result = run(pes);
        for (PeResult pe : result.pes()) {
            String out = String.join("\n", pe.stdout()) + "\n" + String.join("\n", pe.stderr());
            assertEquals(0, pe.exitStatus(), out);
            int me = pe.rank();
            List<String> lines = pe.stdout();
            assertEquals("world sum " + (long) pes * (pes + 1) / 2, lines.get(0), out);
            // split2d(2): rows of 2 consecutive PEs (the last may hold 1), columns of PEs with the same parity
            int rowStart = me - me % 2;
            long row = 0;
            for (int p = rowStart; p < Math.min(rowStart + 2, pes); p++) {
                row += p + 1;
            }
            long column = 0;
            for (int p = me % 2; p < pes; p += 2) {
                column += p + 1;
            }
            assertEquals("split2d row " + row + " column " + column, lines.get(1), out);
            assertEquals("reduce-scatter " + (long) pes * (pes + 1) / 2, lines.get(2), out);
            long evens = 0;
            for (int p = 0; p < pes; p += 2) {
                evens += p + 1;
            }
            assertEquals(me % 2 == 0 ? "stream evens " + evens : "stream evens not a member", lines.get(3), out);
            int previous = (me + pes - 1) % pes;
            assertEquals("two-thread contexts " + (1000 + previous) + " " + (2000 + previous) + " from " + previous,
                    lines.get(4), out);
        }
    }

    @Test
    @Timeout(120)
    void initOptionsAskForMoreAndArgumentErrorsComeFirst() throws Exception {
        LaunchResult result = PeJob.builder(DefaultHostContextsPe.class).args("options").nproc(2)
                .jvmArgs(PeJob.inheritedSystemProperties()).timeout(Duration.ofSeconds(90)).quiet().build().run();
        for (PeResult pe : result.pes()) {
            String out = String.join("\n", pe.stdout()) + "\n" + String.join("\n", pe.stderr());
            assertEquals(0, pe.exitStatus(), out);
            List<String> lines = pe.stdout();
            assertEquals("contexts 6", lines.get(0), out);
            assertTrue(lines.get(1).startsWith("seventh: rocSHMEM allows ROCSHMEM_MAX_NUM_HOST_CONTEXTS=8 host"
                    + " context(s)"), out);
            assertTrue(lines.get(1).endsWith("Ask for 7 or more contexts with Rocshmem.init(InitOptions.hostContexts(n)),"
                    + " or set ROCSHMEM_MAX_NUM_HOST_CONTEXTS=9 or more in the environment of every PE"), out);
            assertTrue(lines.get(2).startsWith("unsupported: UnsupportedOperationException: rocSHMEM defines no host"
                    + " maxReduce for C type unsigned short"), out);
        }
    }

    private static LaunchResult run(int pes) throws Exception {
        return PeJob.builder(DefaultHostContextsPe.class).nproc(pes).jvmArgs(PeJob.inheritedSystemProperties())
                .timeout(Duration.ofSeconds(150)).quiet().build().run();
    }
}
