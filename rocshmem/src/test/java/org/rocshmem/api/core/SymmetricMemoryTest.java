package org.rocshmem.api.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.IntPointer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.HipStream;
import org.rocshmem.api.RegisteredBuffer;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.RocshmemException;
import org.rocshmem.api.RocshmemStateException;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.testing.MultiPe;

/**
 * rocshmem4py's smoke/basic/memory scenarios on two PEs (two JVMs): every test moves real data between the PEs
 * and checks it on the receiving side.
 */
@Tag("emu")
@MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 90)
class SymmetricMemoryTest {
    private static final int INTS = 256;
    private static final int BYTES = INTS * Integer.BYTES;

    /** PE-and-index stamped data, so a block from the wrong PE or offset is detected. */
    private static int[] stamp(int pe, int salt) {
        int[] data = new int[INTS];
        for (int i = 0; i < INTS; i++) {
            data[i] = pe * 1_000_000 + salt * 1_000 + i;
        }
        return data;
    }

    private static int[] read(SymmetricBuffer buffer) {
        int[] out = new int[INTS];
        buffer.copyToHost(0, out);
        return out;
    }

    @Test
    void sessionReportsItselfAndRefusesASecondInit() {
        Rocshmem shmem = Rocshmem.current();
        assertEquals(Integer.parseInt(System.getenv("RANK")), shmem.myPe());
        assertEquals(2, shmem.nPes());
        assertTrue(shmem.backend().emulator(), shmem.backend().toString());
        assertTrue(shmem.backend().name().contains("emulator"), shmem.backend().name());
        assertEquals(shmem.myPe(), shmem.world().myPe());
        assertEquals(2, shmem.world().nPes());
        RocshmemStateException twice = assertThrows(RocshmemStateException.class, Rocshmem::init);
        assertTrue(twice.getMessage().contains("already initialized"), twice.getMessage());
        assertSame(shmem, Rocshmem.current(), "a refused init must keep the session");
    }

    @Test
    void hostRoundTripAndBlockingAndNbiTransfersAroundTheRing() {
        Rocshmem shmem = Rocshmem.current();
        int me = shmem.myPe();
        int next = (me + 1) % 2;
        int previous = (me + 1) % 2;
        try (SymmetricBuffer local = shmem.malloc(BYTES); SymmetricBuffer inbox = shmem.malloc(BYTES);
             SymmetricBuffer fetched = shmem.malloc(BYTES)) {
            // H2D/D2H round trip, several element types
            local.copyFromHost(0, stamp(me, 1));
            assertArrayEquals(stamp(me, 1), read(local));
            double[] doubles = {1.5, -2.25, Math.PI};
            local.copyFromHost(BYTES - 24, doubles);
            double[] back = new double[3];
            local.copyToHost(BYTES - 24, back);
            assertArrayEquals(doubles, back);
            local.copyFromHost(0, stamp(me, 1));

            // blocking put into the next PE, barrier, check what arrived from the previous one
            inbox.put(next, local);
            shmem.barrierAll();
            assertArrayEquals(stamp(previous, 1), read(inbox));

            // blocking get of the next PE's local block into this PE's `fetched`
            local.get(next, fetched);
            assertArrayEquals(stamp(next, 1), read(fetched));
            shmem.barrierAll();

            // nbi put of a sub-range (ints 10..19 -> 100..109), completed by quiet, visible after the barrier
            local.copyFromHost(0, stamp(me, 2));
            inbox.putNbi(next, 100 * 4, local, 10 * 4, 10 * 4);
            shmem.quiet();
            shmem.barrierAll();
            int[] got = read(inbox);
            assertArrayEquals(Arrays.copyOfRange(stamp(previous, 2), 10, 20), Arrays.copyOfRange(got, 100, 110));
            assertEquals(stamp(previous, 1)[99], got[99], "bytes outside the put range must be untouched");

            // nbi get
            local.getNbi(next, 0, fetched, 0, 0); // zero bytes is legal
            local.getNbi(next, 0, fetched, 0, BYTES);
            shmem.quiet();
            assertArrayEquals(stamp(next, 2), read(fetched));

            // host views see the same bytes (emulator: symmetric memory is host memory)
            ByteBuffer view = inbox.asByteBuffer();
            assertEquals(ByteOrder.nativeOrder(), view.order());
            assertEquals(BYTES, view.capacity());
            assertEquals(got[5], view.getInt(5 * 4));
            IntPointer ints = inbox.asIntPointer();
            assertEquals(INTS, ints.capacity());
            assertEquals(got[200], ints.get(200));
            shmem.barrierAll();
        }
    }

    @Test
    void streamOrderedPutAndGet() {
        Rocshmem shmem = Rocshmem.current();
        int me = shmem.myPe();
        int peer = 1 - me;
        try (HipStream stream = HipStream.create(); SymmetricBuffer src = shmem.malloc(BYTES);
             SymmetricBuffer dst = shmem.calloc(INTS, Integer.BYTES); SymmetricBuffer got = shmem.malloc(BYTES)) {
            src.copyFromHost(0, stamp(me, 3));
            shmem.barrierAll();
            dst.putOnStream(stream, peer, 0, src, 0, BYTES);
            shmem.quiet(stream);
            shmem.barrierAll(stream);
            stream.synchronize();
            assertTrue(stream.isIdle());
            assertArrayEquals(stamp(peer, 3), read(dst));

            src.getOnStream(stream, peer, 0, got, 0, BYTES);
            shmem.syncAll(stream);
            stream.synchronize();
            assertArrayEquals(stamp(peer, 3), read(got));

            // the null stream works the same way
            dst.putOnStream(HipStream.NULL, peer, 0, got, 0, 16);
            shmem.barrierAll(HipStream.NULL);
            HipStream.NULL.synchronize();
            assertArrayEquals(Arrays.copyOf(stamp(me, 3), 4), Arrays.copyOf(read(dst), 4));
            shmem.barrierAll();

            stream.close();
            stream.close(); // idempotent
            assertThrows(RocshmemStateException.class, stream::synchronize);
        }
    }

    @Test
    void peerViewsAndPeerPointerTable() {
        Rocshmem shmem = Rocshmem.current();
        int me = shmem.myPe();
        int peer = 1 - me;
        try (SymmetricBuffer buffer = shmem.calloc(INTS, Integer.BYTES)) {
            assertSame(buffer, buffer.peer(me), "the own PE's view is the buffer itself");
            SymmetricBuffer remote = buffer.peer(peer);
            assertFalse(remote.isOwner());
            assertEquals(peer, remote.peerOf());
            // store straight into the peer's copy through the view
            remote.asByteBuffer().putInt(8 * 4, 4242 + me);
            shmem.barrierAll();
            assertEquals(4242 + peer, read(buffer)[8]);

            long[] table = buffer.peerPointerTable();
            assertEquals(2, table.length);
            assertEquals(buffer.address(), table[me]);
            assertEquals(remote.address(), table[peer]);
            assertNotEquals(0L, table[peer]);

            assertThrows(UnsupportedOperationException.class, () -> remote.put(peer, buffer),
                    "put/get address the symmetric buffer, never a peer mapping");
            assertThrows(IndexOutOfBoundsException.class, () -> buffer.peer(2));
            remote.close();
            assertTrue(remote.isClosed());
            assertFalse(buffer.isClosed(), "closing a view must not free the buffer");
            assertThrows(RocshmemStateException.class, remote::asByteBuffer);
            shmem.barrierAll();
        }
    }

    @Test
    void callocZeroesAlignAlignsAndRegisteredMemoryCanBePut() {
        Rocshmem shmem = Rocshmem.current();
        int me = shmem.myPe();
        int peer = 1 - me;
        // dirty a block, free it, then calloc the same size: the (deterministic) heap hands it out zeroed
        SymmetricBuffer dirty = shmem.malloc(BYTES);
        long dirtyAddress = dirty.address();
        dirty.copyFromHost(0, stamp(7, 7));
        dirty.close();
        try (SymmetricBuffer zeroed = shmem.calloc(INTS, Integer.BYTES)) {
            assertEquals(dirtyAddress, zeroed.address(), "test premise: calloc reuses the freed block");
            assertArrayEquals(new int[INTS], read(zeroed));
        }

        try (SymmetricBuffer aligned = shmem.align(1 << 16, 100)) {
            assertEquals(0, aligned.address() % (1 << 16), Long.toHexString(aligned.address()));
            assertEquals(100, aligned.byteSize());
        }
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> shmem.align(48, 64));
        assertEquals("align: alignment 48 is not a power of two", bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> shmem.align(0, 64));

        // registered host memory as the local source of a put
        try (BytePointer host = new BytePointer(BYTES); SymmetricBuffer inbox = shmem.calloc(BYTES, 1)) {
            host.position(0).put(new byte[] {(byte) (10 + me), 20, 30});
            try (RegisteredBuffer registered = shmem.register(host, BYTES)) {
                RocshmemException overlap = assertThrows(RocshmemException.class,
                        () -> shmem.register(new BytePointer(host).position(16), 16));
                assertTrue(overlap.getMessage().contains("rocshmem_buffer_register"), overlap.getMessage());
                inbox.put(peer, 0, registered.pointer(), 3);
                assertThrows(IndexOutOfBoundsException.class, () -> inbox.put(peer, 0, registered.pointer(),
                        BYTES + 1));
                shmem.barrierAll();
                byte[] got = new byte[3];
                inbox.copyToHost(0, got);
                assertArrayEquals(new byte[] {(byte) (10 + peer), 20, 30}, got);
            }
            // unregistered: the same range can be registered again
            shmem.register(host, BYTES).close();
            shmem.barrierAll();
        }
    }

    @Test
    void misuseIsRefusedWithNumbers() {
        Rocshmem shmem = Rocshmem.current();
        SymmetricBuffer a = shmem.malloc(64);
        SymmetricBuffer b = shmem.malloc(32);
        IndexOutOfBoundsException range = assertThrows(IndexOutOfBoundsException.class,
                () -> a.put(0, 60, b, 0, 8));
        assertTrue(range.getMessage().contains("[60, 60 + 8)") && range.getMessage().contains("[0, 64)"),
                range.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> a.put(0, 0, b, 30, 4), "source range is checked too");
        assertThrows(IndexOutOfBoundsException.class, () -> a.get(0, -1, b, 0, 4));
        IndexOutOfBoundsException pe = assertThrows(IndexOutOfBoundsException.class, () -> a.put(2, 0, b, 0, 4));
        assertEquals("PE 2 is outside [0, n_pes=2)", pe.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> a.get(-1, 0, b, 0, 4));
        assertThrows(IllegalArgumentException.class, () -> a.put(0, b), "whole-buffer put needs equal sizes");
        assertThrows(IllegalArgumentException.class, () -> shmem.malloc(0));
        assertThrows(IndexOutOfBoundsException.class, () -> a.copyFromHost(60, new int[2]));

        b.close();
        b.close(); // idempotent
        RocshmemStateException closed = assertThrows(RocshmemStateException.class, () -> b.copyToHost(0, new byte[1]));
        assertTrue(closed.getMessage().contains("was closed"), closed.getMessage());
        assertThrows(RocshmemStateException.class, () -> a.put(0, 0, b, 0, 4), "closed source");
        // `a` is left open on purpose: finalize frees it (and logs where it was allocated)
    }
}
