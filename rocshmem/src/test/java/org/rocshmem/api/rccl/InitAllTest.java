package org.rocshmem.api.rccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.launch.LaunchResult;
import org.rocshmem.api.launch.PeJob;

/** ncclCommInitAll needs several devices in one process: a JVM of its own with ROCSHMEM_EMU_DEVICES=4. */
@Tag("emu")
class InitAllTest {

    @Test
    void oneThreadDrivesFourRanks() throws Exception {
        LaunchResult result = PeJob.builder(InitAllProgram.class)
                .nproc(1)
                .timeout(Duration.ofSeconds(90))
                .jvmArgs(PeJob.inheritedSystemProperties())
                .env("ROCSHMEM_EMU_DEVICES", "4")
                .quiet()
                .build()
                .run();
        String output = String.join("\n", result.pe(0).stdout()) + "\n" + String.join("\n", result.pe(0).stderr());
        assertEquals(0, result.exitStatus(), output);
        assertTrue(output.contains("initAll ok"), output);
    }
}
