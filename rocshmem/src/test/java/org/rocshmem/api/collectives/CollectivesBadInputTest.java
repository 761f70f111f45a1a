package org.rocshmem.api.collectives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.rocshmem.testsupport.Expect.fails;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.CType;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.RocshmemStateException;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.api.Team;
import org.rocshmem.testsupport.InitializedPe;
import org.rocshmem.api.testing.MultiPe;

/**
 * Collective arguments are checked before any native call, on every PE alike (so no PE enters a collective the
 * others refuse): counts following each operation's semantics, the root, the team's state and the element types.
 * Afterwards a real collective still works.
 */
@Tag("emu")
class CollectivesBadInputTest {

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 90)
    void collectivesRefuseBadArgumentsByName() {
        Rocshmem shmem = Rocshmem.current();
        Team world = shmem.world();
        try (SymmetricBuffer buffer = shmem.calloc(16, Long.BYTES); HipStream stream = HipStream.create()) {
            SymmetricLongs four = buffer.asLongs().slice(0, 4);
            SymmetricLongs three = buffer.asLongs().slice(4, 3);
            SymmetricLongs eight = buffer.asLongs().slice(8, 8);
            SymmetricLongs unsigned = buffer.asLongs(CType.ULONG).slice(4, 4);

            fails(IndexOutOfBoundsException.class, "root 2 is outside the team's PEs [0, 2)",
                    () -> world.broadcast(four, eight.slice(0, 4), 2));
            fails(IndexOutOfBoundsException.class, "root -1", () -> world.broadcastmem(stream, four, eight.slice(0,
                    4), -1));
            fails(IllegalArgumentException.class, "destination and source differ in length",
                    () -> world.broadcast(four, three, 0));
            fails(IllegalArgumentException.class, "differ in C type: long and unsigned long",
                    () -> world.sumReduce(four, unsigned));
            fails(IllegalArgumentException.class, "sumReduce: destination and source differ in length",
                    () -> world.sumReduce(four, eight));
            fails(IllegalArgumentException.class, "source must hold one block of destination.length()=4 elements per"
                    + " team PE (2 blocks), but has 4", () -> world.maxReduceScatter(four, eight.slice(0, 4)));
            fails(IllegalArgumentException.class, "a multiple of the team's 2 PEs",
                    () -> world.alltoallmem(stream, buffer.asBytes().slice(0, 3), buffer.asBytes().slice(8, 3)));
            fails(UnsupportedOperationException.class, "no host maxReduce for C type unsigned long",
                    () -> world.maxReduce(unsigned, unsigned.slice(0, 4)));

            // a destroyed team refuses; INVALID is a no-op, never an error
            Team copy = world.splitStrided(0, 1, 2);
            copy.close();
            fails(RocshmemStateException.class, "this team was destroyed", () -> copy.sumReduce(four, eight.slice(0,
                    4)));
            fails(RocshmemStateException.class, "this team was destroyed", copy::sync);
            Team.INVALID.sumReduce(four, three); // no checks, no call: not a member
            Team.INVALID.broadcast(four, four, 99);

            // nothing reached the library: a real reduction still gives the right answer
            four.copyFrom(new long[] {1, 2, 3, shmem.myPe()});
            world.sumReduce(eight.slice(0, 4), four);
            assertArrayEquals(new long[] {2, 4, 6, 1}, eight.slice(0, 4).toArray());
            shmem.barrierAll();
        }
    }
}
