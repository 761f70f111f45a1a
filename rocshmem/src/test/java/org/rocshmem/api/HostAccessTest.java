package org.rocshmem.api;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rocshmem.presets.NativeVariant;

/** The refusal of host loads and stores of symmetric memory on a GPU names what to use instead, and only that. */
class HostAccessTest {

    @Test
    void onAGpuTheRefusalNamesTheBackendAndTheCopiesThatExist() {
        Backend gpu = new Backend("rocSHMEM_v3.6.0", NativeVariant.GPU);
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> HostAccess.check(gpu));
        String message = e.getMessage();
        assertTrue(message.startsWith("symmetric memory is GPU memory on rocSHMEM_v3.6.0 ["), message);
        assertTrue(message.contains("the typed views' copyFrom/copyTo (hipMemcpy) or put/get"), message);
        assertFalse(message.contains("copyToHost") || message.contains("copyFromHost"), "methods that do not exist: " + message);
        assertFalse(message.contains(HostAccess.SETTING), "a GPU has no opt-in: " + message);
    }
}
