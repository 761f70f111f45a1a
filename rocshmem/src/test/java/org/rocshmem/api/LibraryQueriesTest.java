package org.rocshmem.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.global.rocshmem.BackendType;
import org.rocshmem.global.rocshmem.QpInfoVendor;
import org.rocshmem.rocshmem.QpInfo;

/**
 * Issue 17 item 4: the library's enum answers arrive as their constants' names, not null. JavaCPP returns a native
 * enum as a fresh instance that carries only the value (so {@code name()} is null): the API maps it to the constant.
 */
@Tag("emu")
class LibraryQueriesTest {

    @Test
    @MultiPe(1)
    void enumAnswersCarryTheirValue() {
        try (Rocshmem shmem = Rocshmem.init(Bootstrap.libraryOwn())) {
            BackendType raw = org.rocshmem.global.rocshmem.rocshmem_query_backend_type();
            assertNull(raw.name(), "JavaCPP's enum instance (the reason for the fix)");
            assertEquals(BackendType.IPC_BACKEND, raw.intern());
            assertEquals("IPC_BACKEND", shmem.backendType(), "the emulator reports the IPC backend");
            assertTrue(shmem.queuePairProvider().isEmpty(), "the emulator has no NIC queue pairs");
        }
        // queuePairInfo's vendor goes through the same mapping: a QpInfo as the library fills it in
        try (QpInfo info = new QpInfo()) {
            info.zero();
            info.vendor(QpInfoVendor.MLX5);
            info.qpn(17);
            QueuePairInfo read = QueuePairInfo.of(info);
            assertEquals("MLX5", read.vendor());
            assertEquals(17, read.qpn());
        }
    }
}
