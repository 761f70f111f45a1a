package org.rocshmem.api.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Bootstrap;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.RocshmemStateException;
import org.rocshmem.api.Team;

/**
 * Misuse caught in Java before any native library is touched, so these run in every build (no tag): the checks
 * must not depend on rocSHMEM being loadable.
 */
class BeforeInitTest {

    @Test
    void everyEntryPointNeedsInitFirst() {
        assertFalse(Rocshmem.isInitialized());
        RocshmemStateException e = assertThrows(RocshmemStateException.class, Rocshmem::current);
        assertEquals("rocSHMEM is not initialized: call Rocshmem.init() first", e.getMessage());
        assertTrue(e instanceof org.rocshmem.api.RocshmemException);
    }

    @Test
    void uniqueIdOfWrongSizeIsRejectedWithItsLength() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Rocshmem.init(Bootstrap.uniqueId(0, 1, new byte[5])));
        assertEquals("invalid unique id size: a rocSHMEM unique id has 128 bytes, got 5", e.getMessage());
        assertEquals("uid", assertThrows(NullPointerException.class,
                () -> Rocshmem.init(Bootstrap.uniqueId(0, 1, null))).getMessage(), "a null id is named by its parameter");
        assertFalse(Rocshmem.isInitialized(), "a rejected id must not leave a half-open session");
    }

    @Test
    void invalidTeamAnswersLikeTheLibraryAndItsCollectivesAreNoOps() {
        assertFalse(Team.INVALID.isValid());
        assertFalse(Team.INVALID.isMember());
        assertEquals(-1, Team.INVALID.nPes());
        assertEquals(-1, Team.INVALID.myPe());
        assertEquals(0, Team.INVALID.handle());
        assertSame(Team.INVALID, Team.INVALID.splitStrided(0, 1, 1));
        Team.INVALID.sync();     // no-ops, even without a session: nothing reaches native code
        Team.INVALID.barrier();
        Team.INVALID.close(); // harmless, like rocshmem4py's destroy of the sentinel
    }

    @Test
    void nullStreamIsNeverDestroyed() {
        HipStream.NULL.close();
        assertFalse(HipStream.NULL.isClosed());
        assertEquals(null, HipStream.NULL.handle());
    }
}
