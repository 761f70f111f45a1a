package org.rocshmem.api.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LauncherArgumentsTest {

    @Test
    void parsesAllOptionsAndProgram() throws Exception {
        PeJob job = LauncherArguments.parse(new String[] {"--nproc", "4", "--nnodes", "2", "--timeout", "2.5", "--master-addr",
                "localhost", "--master-port", "1234", "--jvm-arg", "-Xmx64m", "--jvm-arg", "-Da=b", "--",
                "com.example.Main", "x", "--", "y"}).build();
        assertEquals(4, job.nproc());
        assertEquals(2, job.nnodes());
        assertEquals(2, job.pesPerNode());
        assertEquals(Duration.ofMillis(2500), job.timeout());
        assertEquals("localhost", job.masterAddr());
        assertEquals(1234, job.masterPort());
        // This JVM's inherited settings come first, then the explicit --jvm-args (which therefore win).
        List<String> expected = new java.util.ArrayList<>(PeJob.inheritedSystemProperties());
        expected.addAll(List.of("-Xmx64m", "-Da=b"));
        assertEquals(expected, job.jvmArgs());
        assertEquals("com.example.Main", job.mainClass());
        assertEquals(List.of("x", "--", "y"), job.args(), "everything after the first -- belongs to the program");
    }

    @Test
    void defaultsToNoTimeoutLoopbackAndFreePort() throws Exception {
        PeJob job = LauncherArguments.parse(new String[] {"--nproc", "1", "--", "Main"}).build();
        assertNull(job.timeout());
        assertEquals("127.0.0.1", job.masterAddr());
        assertEquals(0, job.masterPort());
        assertEquals(1, job.nnodes());
    }

    @Test
    void nnodesThatDoNotDivideNprocAreAUsageError() {
        UsageException e = assertThrows(UsageException.class,
                () -> LauncherArguments.parse(new String[] {"--nproc", "3", "--nnodes", "2", "--", "Main"}));
        assertEquals("--nproc 3 is not a multiple of --nnodes 2 (every simulated node holds N/K PEs)", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "--nproc 2 Main",                 // missing --
        "--nproc 2 --",                   // missing main class
        "--nproc 0 -- Main",              // N < 1
        "--nproc -3 -- Main",
        "--nproc two -- Main",            // non-numeric
        "--timeout 5 -- Main",            // --nproc missing
        "--nproc 2 --timeout soon -- Main",
        "--nproc 2 --timeout 0 -- Main",
        "--nproc 2 --master-port 70000 -- Main",
        "--nproc 2 --verbose yes -- Main", // unknown flag
        "--nproc 2 --timeout -- Main",     // flag without value
        "--nproc 4 --nnodes 3 -- Main",    // nodes of unequal size
        "--nproc 4 --nnodes 0 -- Main",
    })
    void rejectsBadCommandLinesWithUsageAndStatus2(String commandLine) {
        String[] args = commandLine.split(" ");
        assertThrows(UsageException.class, () -> LauncherArguments.parse(args));

        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Launcher.run(args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true));
        assertEquals(Launcher.USAGE_STATUS, status);
        String text = err.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("launcher: "), text);
        assertTrue(text.contains("usage: "), text);
    }

    @Test
    void helpPrintsUsageOnStdoutAndSucceeds() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = Launcher.run(new String[] {"--help"}, new PrintStream(out, true), System.err);
        assertEquals(0, status);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("--nproc N"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("--nnodes K"));
    }
}
