package org.rocshmem.api.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rocshmem.testsupport.Expect.fails;

import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.PeerDoubles;
import org.rocshmem.api.PeerLongs;
import org.rocshmem.api.RocshmemStateException;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.api.testing.MultiPe;

/**
 * Issue 17 item 6: typed views of a peer's copy where rocSHMEM has a direct path (rocshmem_ptr). Values stored
 * through one PE's peer view are read by the other PE; across simulated nodes there is no such view.
 */
@Tag("emu")
class PeerViewTest {

    @Test
    @MultiPe(value = 2, timeoutSeconds = 90)
    void storesAndLoadsThroughAPeerViewReachThePeer() {
        try (Rocshmem shmem = Rocshmem.init()) {
            int me = shmem.myPe();
            int other = 1 - me;
            SymmetricBuffer buffer = shmem.calloc(16, Long.BYTES);
            SymmetricLongs inbox = buffer.asLongs().slice(4, 4);
            PeerLongs peer = inbox.peer(other).orElseThrow(() -> new AssertionError("no direct path on one node"));
            assertEquals(other, peer.pe());
            assertEquals(4, peer.length());

            if (me == 0) {
                peer.set(1, 42);
                peer.set(3, -7);
            }
            shmem.barrierAll();
            if (me == 1) {
                assertEquals(42, inbox.get(1), "PE 0's store through its peer view of PE 1");
                assertEquals(-7, inbox.get(3));
                assertEquals(0, buffer.asLongs().get(8), "nothing beyond the slice");
                inbox.set(0, 1234);
            }
            shmem.barrierAll();
            if (me == 0) {
                assertEquals(1234, peer.get(0), "PE 1's own store, loaded by PE 0 through the peer view");
            }
            // own copy through the same concept, and another element type on the same block
            PeerLongs own = inbox.peer(me).orElseThrow();
            assertEquals(inbox.get(0), own.get(0));
            PeerDoubles doubles = buffer.asDoubles().slice(12, 2).peer(other).orElseThrow();
            doubles.set(me, 0.5 + me);
            shmem.barrierAll();
            assertEquals(0.5 + other, buffer.asDoubles().get(12 + other), "the other PE's double store");

            fails(IndexOutOfBoundsException.class, "index 4 is outside [0, 4)", () -> peer.set(4, 1));
            fails(IndexOutOfBoundsException.class, "index -1 is outside", () -> peer.get(-1));
            fails(IndexOutOfBoundsException.class, "PE 2 is outside [0, n_pes=2)", () -> inbox.peer(2));
            shmem.barrierAll();

            buffer.close();
            assertTrue(peer.isClosed());
            fails(RocshmemStateException.class, "closed", () -> peer.get(0));
            fails(RocshmemStateException.class, "closed", () -> peer.set(0, 1));
            fails(RocshmemStateException.class, "closed", () -> inbox.peer(other));
        }
    }

    @Test
    @MultiPe(value = 2, timeoutSeconds = 90, env = "ROCSHMEM_EMU_PES_PER_NODE=1")
    void thereIsNoPeerViewAcrossNodes() {
        try (Rocshmem shmem = Rocshmem.init();
             SymmetricBuffer buffer = shmem.calloc(4, Long.BYTES)) {
            int me = shmem.myPe();
            SymmetricLongs longs = buffer.asLongs();
            Optional<PeerLongs> remote = longs.peer(1 - me);
            assertFalse(remote.isPresent(), "rocshmem_ptr is null for a PE on another node: " + remote);
            longs.peer(me).orElseThrow().set(2, 99 + me);
            assertEquals(99 + me, longs.get(2), "the own copy stays directly reachable");
            shmem.barrierAll();
        }
    }
}
