package org.rocshmem.api.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.launch.LaunchResult;
import org.rocshmem.api.launch.PeJob;

/** Programs that forget Rocshmem.close(): the shutdown hook must finalize, and must not hang when a peer is gone. */
@Tag("emu")
class FinalizeAtExitTest {

    /** PE program: init, move data, never close. Mode "halt-peer": PE 1 dies abruptly right after init. */
    public static final class ForgetfulPe {
        public static void main(String[] args) throws Exception {
            Rocshmem shmem = Rocshmem.init();
            if (args[0].equals("halt-peer") && shmem.myPe() == 1) {
                Runtime.getRuntime().halt(0);
            }
            if (args[0].equals("both-forget")) {
                SymmetricBuffer buffer = shmem.malloc(64);
                buffer.asLongs().put(1 - shmem.myPe(), buffer.asLongs());
                shmem.barrierAll();
            } else {
                Thread.sleep(500); // let the peer die first; the finalize barrier at exit then finds it gone
            }
            System.out.println("main returns without close");
        }
    }

    private static LaunchResult run(String mode) throws Exception {
        List<String> jvmArgs = new ArrayList<>();
        System.getProperties().stringPropertyNames().stream().filter(name -> name.startsWith("org.bytedeco."))
                .forEach(name -> jvmArgs.add("-D" + name + "=" + System.getProperty(name)));
        jvmArgs.add("-Drocshmem.finalizeAtExitTimeoutSeconds=5");
        return PeJob.builder(ForgetfulPe.class).nproc(2).args(mode).jvmArgs(jvmArgs)
                .timeout(Duration.ofSeconds(60)).quiet().build().run();
    }

    @Test
    void forgottenFinalizeRunsAtExitOnEveryPe() throws Exception {
        LaunchResult result = run("both-forget");
        assertTrue(result.succeeded(), result.reason() + " " + result.pes());
        for (var pe : result.pes()) {
            String stderr = String.join("\n", pe.stderr());
            assertTrue(stderr.contains("finalizing at JVM exit"), "PE " + pe.rank() + ": " + stderr);
            assertTrue(stderr.contains("was not closed; freeing it at finalize"), stderr);
            assertFalse(stderr.contains("did not finish"), stderr);
        }
    }

    @Test
    void exitWithADeadPeerIsBounded() throws Exception {
        long start = System.nanoTime();
        LaunchResult result = run("halt-peer");
        long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();
        assertFalse(result.timedOut(), result.reason());
        assertTrue(seconds < 30, "took " + seconds + " s");
        assertEquals(0, result.pe(1).exitStatus());
        String stderr = String.join("\n", result.pe(0).stderr());
        assertTrue(stderr.contains("finalizing at JVM exit"), stderr);
    }
}
