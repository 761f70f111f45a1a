package org.rocshmem.api.faults;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocshmem.api.launch.LaunchResult;
import org.rocshmem.api.launch.PeJob;

/** Emulator init failures reach the Java exception message through the emulator's last-error call. */
@Tag("emu")
class InitFailureMessageTest {

    @ParameterizedTest(name = "{0} init")
    @ValueSource(strings = {"launched", "raw"})
    void theEmulatorsReasonIsInTheMessage(String path) throws Exception {
        LaunchResult result = PeJob.builder(InitFailurePe.class).nproc(1).args(path)
                .jvmArgs(PeJob.inheritedSystemProperties()).env("ROCSHMEM_HEAP_SIZE", "bogus")
                .timeout(Duration.ofSeconds(60)).quiet().build().run();
        String message = result.pe(0).stdout().stream().filter(line -> line.startsWith("MESSAGE: ")).findFirst()
                .orElseThrow(() -> new AssertionError("init did not fail: " + result.pe(0)));
        assertTrue(message.contains("invalid ROCSHMEM_HEAP_SIZE='bogus'"), message);
        assertFalse(message.contains("stderr"), "the reason is in the message, not only on stderr: " + message);
    }
}
