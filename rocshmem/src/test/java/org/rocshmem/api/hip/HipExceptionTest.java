package org.rocshmem.api.hip;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.rocshmem.global.hip.hipErrorInvalidValue;
import static org.rocshmem.global.hip.hipErrorNotSupported;
import static org.rocshmem.global.hip.hipSuccess;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The status-to-exception helper, on whichever HIP the build linked (real or emulated). */
@Tag("native")
class HipExceptionTest {

    @Test
    void successPassesThrough() {
        assertDoesNotThrow(() -> HipException.check(hipSuccess, "hipInit"));
    }

    @Test
    void failureNamesCallCodeNameAndDescription() {
        HipException e = assertThrows(HipException.class, () -> HipException.check(hipErrorInvalidValue, "hipMemcpy"));
        assertEquals(hipErrorInvalidValue, e.code());
        assertEquals("hipErrorInvalidValue", e.errorName());
        assertEquals("invalid argument", e.description());
        assertEquals("hipMemcpy failed: hipErrorInvalidValue (1): invalid argument", e.getMessage());
    }

    @Test
    void notSupportedIsNamed() {
        HipException e = assertThrows(HipException.class, () -> HipException.check(hipErrorNotSupported, "hipGraphLaunch"));
        assertEquals("hipErrorNotSupported", e.errorName());
    }
}
