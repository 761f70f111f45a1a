package org.rocshmem.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The version check at load: headers compiled against and library running must agree. */
class VersionCheckTest {

    @Test
    @Tag("emu")
    void theEmulatorReportsTheEmulatedVersionAndPassesTheCheck() {
        NativeLibraries.Loaded loaded = NativeLibraries.loadRocshmem();  // throws on a mismatch
        assertTrue(loaded.emulator(), loaded.variant());
        LibraryInfo info = LibraryInfo.query();
        assertEquals(org.rocshmem.global.rocshmem.ROCSHMEM_VENDOR_MAJOR_VERSION + "."
                + org.rocshmem.global.rocshmem.ROCSHMEM_VENDOR_MINOR_VERSION + "."
                + org.rocshmem.global.rocshmem.ROCSHMEM_VENDOR_PATCH_VERSION, info.vendorVersion());
    }

    @Test
    void aMismatchIsOneParagraphNamingBothVersionsAndTheFix() {
        String message = NativeLibraries.versionMismatch("3.6.0", "3.5.1", "/x/libjnirocshmem.so");
        assertTrue(message.contains("compiled against the headers of rocSHMEM 3.6.0 but runs rocSHMEM 3.5.1"), message);
        assertTrue(message.contains("ROCSHMEM_HOME"), message);
        assertFalse(message.contains("\n"), "one paragraph: " + message);
    }
}
