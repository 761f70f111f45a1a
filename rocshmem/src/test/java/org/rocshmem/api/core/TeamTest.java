package org.rocshmem.api.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.RocshmemStateException;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.Team;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.testsupport.InitializedPe;

@Tag("emu")
class TeamTest {

    @Test
    @MultiPe(value = 3, lifecycle = InitializedPe.class, timeoutSeconds = 90)
    void splitsTranslateAndCloseWithTracking() {
        Rocshmem shmem = Rocshmem.current();
        int me = shmem.myPe();
        Team world = shmem.world();

        // even PEs {0, 2}: PE 1 is not a member and gets Team.INVALID, on which collectives are no-ops
        Team even = world.splitStrided(0, 2, 2);
        assertEquals(me % 2 == 0, even.isMember());
        if (!even.isMember()) {
            assertEquals(Team.INVALID, even);
            assertEquals(-1, even.myPe());
            assertEquals(-1, even.nPes());
            even.sync();
            even.barrier();
            even.sync(HipStream.NULL);
            even.barrier(HipStream.NULL);
            assertEquals(Team.INVALID, even.splitStrided(0, 1, 1), "a split of INVALID is INVALID");
            assertEquals(new Team.Split2d(Team.INVALID, Team.INVALID), even.split2d(1));
            assertEquals(-1, even.translatePe(0, world));
            even.close();
        }
        if (even.isMember()) {
            Team team = even;
            assertEquals(2, team.nPes());
            assertEquals(me / 2, team.myPe());
            assertEquals(2, team.translatePe(1, world), "team PE 1 is world PE 2");
            assertEquals(-1, world.translatePe(1, team), "world PE 1 is not in the team");
            team.sync();
            team.barrier();
            team.sync(HipStream.NULL);
            HipStream.NULL.synchronize();
        }

        // 2d split of 3 PEs with rows of 2: x = {0,1},{2}; y = {0,2},{1}
        Team.Split2d grid = world.split2d(2);
        assertTrue(grid.x().isValid() && grid.y().isValid());
        assertEquals(me < 2 ? 2 : 1, grid.x().nPes());
        assertEquals(me % 2 == 0 ? 2 : 1, grid.y().nPes());
        assertEquals(me % 2, grid.x().myPe());

        // a barrier on the split team moves real data: the team's other member wrote before it
        try (SymmetricBuffer slot = shmem.calloc(1, Integer.BYTES)) {
            if (even.isMember()) {
                int partner = 2 - me;
                slot.asInts().copyFrom(new int[] {0});
                shmem.barrierAll();
                try (SymmetricBuffer value = shmem.malloc(Integer.BYTES)) {
                    value.asInts().copyFrom(new int[] {100 + me});
                    slot.asInts().put(partner, value.asInts());
                    even.barrier();
                    assertEquals(100 + partner, slot.asInts().toArray()[0]);
                }
            } else {
                shmem.barrierAll();
                shmem.malloc(Integer.BYTES).close(); // malloc/free are collective over the world
            }
        }

        if (even.isMember()) {
            even.close();
            even.close(); // idempotent
            assertTrue(even.isClosed());
            assertThrows(RocshmemStateException.class, even::nPes);
        }
        // a split with a team configuration (rocshmem_team_config_t, num_contexts)
        try (Team configured = world.splitStrided(0, 1, 3, new Team.Config(2))) {
            assertEquals(3, configured.nPes());
            assertEquals(me, configured.myPe());
            configured.barrier();
        }
        Team.Split2d closedGrid;
        try (Team.Split2d configuredGrid = world.split2d(3, new Team.Config(1), null)) {
            assertEquals(3, configuredGrid.x().nPes());
            assertEquals(1, configuredGrid.y().nPes());
            closedGrid = configuredGrid;
        }
        assertTrue(closedGrid.x().isClosed() && closedGrid.y().isClosed(), "a Split2d closes both teams");
        assertThrows(IllegalArgumentException.class, () -> new Team.Config(-1));
        assertThrows(IllegalArgumentException.class, () -> world.splitStrided(1, 2, 2), "PE 3 is outside 3 PEs");

        shmem.world().close(); // predefined teams are never destroyed
        assertEquals(3, shmem.world().nPes());
        assertFalse(Team.INVALID.isValid());
        // grid.x()/grid.y() stay open on purpose: finalize destroys them, newest first
    }
}
