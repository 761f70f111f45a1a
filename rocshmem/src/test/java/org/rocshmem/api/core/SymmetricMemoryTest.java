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
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.RegisteredBuffer;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.RocshmemException;
import org.rocshmem.api.RocshmemStateException;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricBytes;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.testsupport.InitializedPe;

/**
 * rocshmem4py's smoke/basic/memory scenarios on two PEs (two JVMs): every test moves real data between the PEs
 * and checks it on the receiving side.
 */
@Tag("emu")
// ByteBuffer views of symmetric memory (refused by default, as on a GPU: HostAccessOnTheEmulatorTest) are opted into.
@MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 90, env = "ROCSHMEM_EMU_HOST_ACCESS=1")
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
        return buffer.asInts().toArray();
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
            // H2D/D2H round trips with every primitive array type
            local.asInts().copyFrom(stamp(me, 1));
            assertArrayEquals(stamp(me, 1), read(local));
            double[] doubles = {1.5, -2.25, Math.PI};
            local.asDoubles().slice(INTS / 2 - 3, 3).copyFrom(doubles);
            assertArrayEquals(doubles, local.asDoubles().slice(INTS / 2 - 3, 3).toArray());
            float[] floats = {0.5f, -7.75f};
            local.asFloats().slice(1, 2).copyFrom(floats);
            assertArrayEquals(floats, local.asFloats().slice(1, 2).toArray());
            short[] shorts = {-1, 2, Short.MAX_VALUE};
            local.asShorts().slice(10, 3).copyFrom(shorts);
            assertArrayEquals(shorts, local.asShorts().slice(10, 3).toArray());
            byte[] bytes = {9, -9};
            local.asBytes().slice(40, 2).copyFrom(bytes);
            assertArrayEquals(bytes, local.asBytes().slice(40, 2).toArray());
            long[] longs = {Long.MIN_VALUE, 42};
            local.asLongs().slice(30, 2).copyFrom(longs);
            assertArrayEquals(longs, local.asLongs().slice(30, 2).toArray());
            local.asInts().copyFrom(stamp(me, 1));

            // blocking put into the next PE, barrier, check what arrived from the previous one
            inbox.asInts().put(next, local.asInts());
            shmem.barrierAll();
            assertArrayEquals(stamp(previous, 1), read(inbox));

            // blocking get of the next PE's local block into this PE's `fetched`
            local.asInts().get(next, fetched.asInts());
            assertArrayEquals(stamp(next, 1), read(fetched));
            shmem.barrierAll();

            // nbi put of a sub-range (ints 10..19 -> 100..109), completed by quiet, visible after the barrier
            local.asInts().copyFrom(stamp(me, 2));
            inbox.asInts().slice(100, 10).putNbi(next, local.asInts().slice(10, 10));
            shmem.quiet();
            shmem.barrierAll();
            int[] got = read(inbox);
            assertArrayEquals(Arrays.copyOfRange(stamp(previous, 2), 10, 20), Arrays.copyOfRange(got, 100, 110));
            assertEquals(stamp(previous, 1)[99], got[99], "bytes outside the put range must be untouched");

            // nbi get
            local.asInts().slice(0, 0).getNbi(next, fetched.asInts().slice(0, 0)); // zero elements is legal
            local.asInts().getNbi(next, fetched.asInts());
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
            src.asInts().copyFrom(stamp(me, 3));
            shmem.barrierAll();
            dst.asInts().putmemOnStream(stream, peer, src.asInts());
            shmem.quiet(stream);
            shmem.barrierAll(stream);
            stream.synchronize();
            assertTrue(stream.isIdle());
            assertArrayEquals(stamp(peer, 3), read(dst));

            src.asBytes().getmemOnStream(stream, peer, got.asBytes());
            shmem.syncAll(stream);
            stream.synchronize();
            assertArrayEquals(stamp(peer, 3), read(got));

            // the null stream works the same way
            dst.asInts().slice(0, 4).putmemOnStream(HipStream.NULL, peer, got.asInts().slice(0, 4));
            shmem.barrierAll(HipStream.NULL);
            HipStream.NULL.synchronize();
            assertArrayEquals(Arrays.copyOf(stamp(me, 3), 4), Arrays.copyOf(read(dst), 4));
            shmem.barrierAll();

            stream.close();
            stream.close(); // idempotent
            assertThrows(IllegalStateException.class, stream::synchronize);
        }
    }

    @Test
    void peerViewsAndPeerPointerTable() {
        Rocshmem shmem = Rocshmem.current();
        int me = shmem.myPe();
        int peer = 1 - me;
        try (SymmetricBuffer buffer = shmem.calloc(INTS, Integer.BYTES)) {
            assertSame(buffer, buffer.peer(me), "the own PE's view is the buffer itself");
            assertFalse(buffer.isPeerView());
            assertEquals(me, buffer.addressedPe());
            SymmetricBuffer remote = buffer.peer(peer);
            assertTrue(remote.isPeerView());
            assertEquals(peer, remote.addressedPe());
            // store straight into the peer's copy through the view
            remote.asByteBuffer().putInt(8 * 4, 4242 + me);
            shmem.barrierAll();
            assertEquals(4242 + peer, read(buffer)[8]);

            long[] table = buffer.peerPointerTable();
            assertEquals(2, table.length);
            assertEquals(buffer.address(), table[me]);
            assertEquals(remote.address(), table[peer]);
            assertNotEquals(0L, table[peer]);

            assertThrows(UnsupportedOperationException.class, remote::asInts,
                    "typed views address the symmetric buffer, never a peer mapping");
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
        dirty.asInts().copyFrom(stamp(7, 7));
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
                inbox.asBytes().slice(0, 3).putmem(peer, registered.pointer());
                assertThrows(IndexOutOfBoundsException.class,
                        () -> inbox.asBytes().putmem(peer, registered.pointer().limit(BYTES - 1)));
                shmem.barrierAll();
                assertArrayEquals(new byte[] {(byte) (10 + peer), 20, 30}, inbox.asBytes().slice(0, 3).toArray());
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
                () -> a.asBytes().slice(60, 8));
        assertTrue(range.getMessage().contains("[60, 60 + 8)") && range.getMessage().contains("[0, 64)"),
                range.getMessage());
        IndexOutOfBoundsException pe = assertThrows(IndexOutOfBoundsException.class,
                () -> a.asBytes().slice(0, 32).put(2, b.asBytes()));
        assertEquals("PE 2 is outside [0, n_pes=2)", pe.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> a.asInts().get(-1, b.asInts().slice(0, 16).toArray()));
        assertThrows(IllegalArgumentException.class, () -> a.asBytes().put(0, b.asBytes()), "equal lengths");
        assertThrows(IllegalArgumentException.class, () -> shmem.malloc(0));
        assertThrows(IllegalArgumentException.class, () -> a.asInts().copyFrom(new int[2]));

        SymmetricBytes view = b.asBytes();
        b.close();
        b.close(); // idempotent
        RocshmemStateException closed = assertThrows(RocshmemStateException.class, () -> view.copyTo(new byte[32]));
        assertTrue(closed.getMessage().contains("was closed"), closed.getMessage());
        assertThrows(RocshmemStateException.class, () -> a.asBytes().slice(0, 32).put(0, view), "closed source");
        // `a` is left open on purpose: finalize frees it (and logs where it was allocated)
    }
}
