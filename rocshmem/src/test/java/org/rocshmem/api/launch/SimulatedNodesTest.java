package org.rocshmem.api.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 21 item 3: {@code Launcher --nproc 4 --nnodes 2} makes two simulated nodes of two PEs on the CPU emulator.
 * Each PE's SHARED team is its node, direct (rocshmem_ptr) addresses exist on the node only, SHARED can be split,
 * and a put, atomics and a reduction across the nodes give exact values.
 */
@Tag("emu")
class SimulatedNodesTest {
    private static final int PES = 4;
    private static final int PER_NODE = 2;

    @Test
    @Timeout(150)
    void twoNodesOfTwoPes() {
        LauncherRun run = LauncherRun.of("--nproc", Integer.toString(PES), "--nnodes", "2", "--timeout", "120", "--",
                SimulatedNodesPe.class.getName());
        String output = run.stdout() + run.stderr();
        assertEquals(0, run.status(), output);
        for (int pe = 0; pe < PES; pe++) {
            int node = pe / PER_NODE;
            String mine = IntStream.range(node * PER_NODE, (node + 1) * PER_NODE).mapToObj(Integer::toString)
                    .collect(Collectors.joining(","));
            String direct = IntStream.range(0, PES).mapToObj(peer -> peer / PER_NODE == node ? "1" : "0")
                    .collect(Collectors.joining(","));
            assertEquals(mine + " index=" + pe % PER_NODE, value(run.stdout(), pe, "shared"), output);
            assertEquals(direct, value(run.stdout(), pe, "direct"), output);
            long nodeSum = IntStream.range(node * PER_NODE, (node + 1) * PER_NODE).sum();
            assertEquals(mine + " sum=" + nodeSum, value(run.stdout(), pe, "split"), output);
            int from = (pe + PES - PER_NODE) % PES;
            long counter = pe == 0 || pe == PES - 1 ? (1 << PES) - 1 : 0;
            assertEquals((100 + from) + " counter=" + counter + " sum=" + PES * (PES + 1) / 2,
                    value(run.stdout(), pe, "put"), output);
        }
    }

    /** The rest of PE {@code pe}'s only line that starts with {@code key=}. */
    private static String value(String stdout, int pe, String key) {
        Matcher matcher = Pattern.compile("^\\[PE " + pe + "\\] " + key + "=(.*)$", Pattern.MULTILINE).matcher(stdout);
        List<String> found = matcher.results().map(result -> result.group(1)).toList();
        assertTrue(found.size() == 1, "PE " + pe + " printed " + found.size() + " '" + key + "=' lines:\n" + stdout);
        return found.get(0);
    }
}
