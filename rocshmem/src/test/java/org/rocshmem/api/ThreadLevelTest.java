package org.rocshmem.api;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** init(ThreadLevel)'s check: the provided level must be at least the requested one, in OpenSHMEM's order. */
class ThreadLevelTest {

    @Test
    void aLowerProvidedLevelIsRefusedNamingBoth() {
        RocshmemException e = assertThrows(RocshmemException.class,
                () -> ThreadLevel.SERIALIZED.requireAtLeast(ThreadLevel.MULTIPLE));
        assertEquals("requested thread level MULTIPLE but rocSHMEM provides SERIALIZED (rocshmem_query_thread)",
                e.getMessage());
        assertThrows(RocshmemException.class, () -> ThreadLevel.SINGLE.requireAtLeast(ThreadLevel.FUNNELED));
        assertThrows(RocshmemException.class, () -> ThreadLevel.FUNNELED.requireAtLeast(ThreadLevel.WG_FUNNELED));
    }

    @Test
    void anEqualOrHigherProvidedLevelIsAccepted() {
        for (ThreadLevel requested : ThreadLevel.values()) {
            assertDoesNotThrow(() -> ThreadLevel.MULTIPLE.requireAtLeast(requested));
            assertDoesNotThrow(() -> requested.requireAtLeast(requested));
        }
    }
}
