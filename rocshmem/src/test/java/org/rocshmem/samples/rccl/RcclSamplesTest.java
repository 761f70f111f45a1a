package org.rocshmem.samples.rccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.launch.PeJob;

/** Each RCCL sample, run as a user would: the launcher's command line, 2 PEs on the emulator. */
@Tag("emu")
class RcclSamplesTest {

    @Test
    void allReduceBasic() throws Exception {
        String out = launch("AllReduceBasic", "4096");
        for (int rank = 0; rank < 2; rank++) {
            assertTrue(out.contains("[PE " + rank + "] rank " + rank + "/2: allreduce sum = 3.0 on all 4096 elements - verified"), out);
        }
    }

    @Test
    void sendRecvBasic() throws Exception {
        String out = launch("SendRecvBasic", "100000");
        assertTrue(out.contains("[PE 0] rank 0/2: received 100000 ints from rank 1 - verified"), out);
        assertTrue(out.contains("[PE 1] rank 1/2: received 100000 ints from rank 0 - verified"), out);
    }

    @Test
    void gradientAllReduceWithRocshmem() throws Exception {
        String out = launch("GradientAllReduce", "300");
        Matcher m = Pattern.compile("PE (\\d)/2: 300 steps, shard loss ([0-9.]+) -> ([0-9.]+), replicas identical")
                .matcher(out);
        int matched = 0;
        while (m.find()) {
            matched++;
            assertTrue(Double.parseDouble(m.group(3)) < Double.parseDouble(m.group(2)) / 100, out);
        }
        assertEquals(2, matched, out);
        // The true model is (1..8)/8: data parallelism found it.
        assertTrue(out.contains("PE 0: weights [0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0]"), out);
    }

    /** java -cp CP org.rocshmem.api.launch.Launcher --nproc 2 --timeout 120 -- sample args; returns its output. */
    private static String launch(String sample, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(PeJob.inheritedSystemProperties());  // the launcher passes them on to every PE
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "org.rocshmem.api.launch.Launcher",
                "--nproc", "2", "--timeout", "120", "--", "org.rocshmem.samples.rccl." + sample));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(150, TimeUnit.SECONDS), sample + " did not finish");
        String text = new String(output, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), sample + " failed:\n" + text);
        return text;
    }
}
