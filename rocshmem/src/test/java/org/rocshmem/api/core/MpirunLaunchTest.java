package org.rocshmem.api.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mpirun -n 2 java ...} launches a rocSHMEM Java program without our launcher: Rocshmem.init()
 * maps OMPI_COMM_WORLD_* and rendezvouses over TCP. Needs Open MPI's mpirun (dev/setup-debian.sh
 * installs openmpi-bin).
 */
@Tag("emu")
class MpirunLaunchTest {

    @Test
    void ringExchangeRunsUnderMpirun(@TempDir Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Per-rank output files: both ranks writing to one pipe interleave mid-line.
        Path perRank = dir.resolve("ranks");
        List<String> command = new ArrayList<>(List.of("mpirun", "--oversubscribe", "-n", "2",
                "--output-filename", perRank.toString()));
        if ("root".equals(System.getProperty("user.name"))) {
            command.add("--allow-run-as-root");
        }
        // Open MPI rewrites a java command line unless -cp comes first.
        command.addAll(List.of(java, "-cp", System.getProperty("java.class.path"),
                "-Dorg.bytedeco.javacpp.platform.extension=-emu",
                "-Dorg.bytedeco.javacpp.cachedir=" + dir.resolve("javacpp-cache"),
                RingProgram.class.getName(), "2048"));
        Path log = dir.resolve("mpirun.log");
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("MASTER_PORT", String.valueOf(freePort()));
        Process p = pb.start();
        boolean finished = p.waitFor(120, TimeUnit.SECONDS);
        if (!finished) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        StringBuilder all = new StringBuilder(Files.readString(log, StandardCharsets.UTF_8));
        if (Files.isDirectory(perRank)) {
            try (var files = Files.walk(perRank)) {
                for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                    all.append("\n--- ").append(perRank.relativize(f)).append('\n').append(Files.readString(f, StandardCharsets.UTF_8));
                }
            }
        }
        String output = all.toString();
        assertTrue(finished, "mpirun did not finish within 120 s:\n" + output);
        assertEquals(0, p.exitValue(), "mpirun failed:\n" + output);
        assertTrue(output.contains("PE 0/2: received 2048 longs from PE 1, verified"), output);
        assertTrue(output.contains("PE 1/2: received 2048 longs from PE 0, verified"), output);
    }

    /** What mpirun starts on every rank: a ring exchange of stamped longs, checked on arrival. */
    public static final class RingProgram {
        public static void main(String[] args) {
            int count = Integer.parseInt(args[0]);
            try (org.rocshmem.api.Rocshmem shmem = org.rocshmem.api.Rocshmem.init();
                 org.rocshmem.api.SymmetricBuffer inbox = shmem.calloc(count, Long.BYTES)) {
                int me = shmem.myPe();
                int n = shmem.nPes();
                long[] stamp = new long[count];
                java.util.Arrays.setAll(stamp, i -> me * 1_000_000L + i);
                inbox.asLongs().put((me + 1) % n, stamp);
                shmem.barrierAll();
                int previous = (me + n - 1) % n;
                long[] got = inbox.asLongs().toArray();
                boolean ok = true;
                for (int i = 0; i < count; i++) {
                    ok &= got[i] == previous * 1_000_000L + i;
                }
                System.out.printf("PE %d/%d: received %d longs from PE %d, %s%n", me, n, count, previous,
                        ok ? "verified" : "WRONG");
                if (!ok) {
                    System.exit(1);
                }
            }
        }
    }

    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
