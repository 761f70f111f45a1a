package org.rocshmem.pytorch;

import static org.bytedeco.pytorch.global.torch.arange;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rocshmem.pytorch.TorchTestSupport.floats;
import static org.rocshmem.pytorch.TorchTestSupport.longs;
import static org.rocshmem.pytorch.TorchTestSupport.set;
import static org.rocshmem.pytorch.TorchTestSupport.stamp;

import java.util.Optional;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.global.torch.ScalarType;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.RocshmemStateException;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.testsupport.InitializedPe;

/** Every TorchShmem function on 2 and 4 PEs (one JVM each), with exact values, and the misuse cases. */
class SymmetricTensorTest {
    private static final int N = 16;

    /**
     * Every function on 2 PEs, then the misuse cases, then use after the session ended: one PE JVM pair, since
     * starting JVMs that load libtorch is the costly part of these tests.
     */
    @Test
    @MultiPe(value = 2, timeoutSeconds = 180)
    void everyFunctionOnTwoPesThenMisuseAndUseAfterTheSessionEnds() {
        SymmetricTensor survivor;
        TorchShmem torch;
        try (Rocshmem shmem = Rocshmem.init()) {
            streamOperations(shmem);
            wrapPeerAndHeapBases();
            misuse(shmem);
            torch = TorchShmem.of(shmem);
            survivor = torch.create(ScalarType.Int, 4);
            survivor.tensor().fill_(new Scalar(3));
            assertEquals(12, survivor.tensor().sum().item_long());
            shmem.barrierAll();
        }
        // the session ended with the tensor open: it refuses every use, and releasing it is safe
        assertTrue(survivor.isClosed());
        String m = assertThrows(RocshmemStateException.class, survivor::tensor).getMessage();
        assertTrue(m.contains("session ended"), m);
        assertDoesNotThrow(survivor::close);
        assertDoesNotThrow(survivor::close);
        assertThrows(RocshmemStateException.class, () -> TorchShmem.of(torch.session()));
    }

    /** create, zero copy, a torch computation, put/get/barrier on a stream. */
    private static void streamOperations(Rocshmem shmem) {
        TorchShmem torch = TorchShmem.of(shmem);
        assertSame(torch, TorchShmem.of(shmem), "one TorchShmem per session");
        int me = shmem.myPe();
        int next = (me + 1) % 2;
        int previous = (me + 1) % 2;
        try (HipStream stream = HipStream.create();
             SymmetricTensor source = torch.create(ScalarType.Long, 4, 4);
             SymmetricTensor destination = torch.create(ScalarType.Long, 4, 4);
             SymmetricTensor got = torch.create(ScalarType.Long, 4, 4)) {
            // zero copy: the tensor's data pointer is the symmetric address
            assertEquals(source.address(), source.tensor().data_ptr().address());
            assertEquals(source.view().address(), source.tensor().data_ptr().address());
            assertTrue(source.tensor().device().is_cpu());
            assertEquals(ScalarType.Long, source.tensor().scalar_type().intern());
            assertArrayEquals(new long[] {4, 4}, TorchShmem.longs(source.tensor().sizes()));
            assertEquals(128, source.byteSize());
            assertTrue(source.ownsMemory());

            // a torch computation writes symmetric memory directly
            source.tensor().copy_(arange(new Scalar(0), new Scalar(N), new TensorOptions(ScalarType.Long))
                    .reshape(4, 4).mul(new Scalar(2)).add(new Scalar(1000L * me)));
            long[] expectedSource = new long[N];
            for (int i = 0; i < N; i++) {
                expectedSource[i] = 1000L * me + 2L * i;
            }
            assertArrayEquals(expectedSource, TorchTestSupport.longsOf(((org.rocshmem.api.SymmetricBytes) source.view()).toArray()));

            torch.barrierAll(stream);
            torch.put(destination, source, next, stream);
            stream.synchronize();
            shmem.barrierAll();
            long[] expectedFromPrevious = new long[N];
            for (int i = 0; i < N; i++) {
                expectedFromPrevious[i] = 1000L * previous + 2L * i;
            }
            assertArrayEquals(expectedFromPrevious, longs(destination.tensor()));

            torch.get(got, source, next, stream);
            stream.synchronize();
            long[] expectedFromNext = new long[N];
            for (int i = 0; i < N; i++) {
                expectedFromNext[i] = 1000L * next + 2L * i;
            }
            assertArrayEquals(expectedFromNext, longs(got.tensor()));
            // torch reads the received tensor: the sum of the next PE's values
            assertEquals(1000L * next * N + (long) N * (N - 1), got.tensor().sum().item_long());
            shmem.barrierAll();
        }
    }

    /** wrap, peer and heapBases. */
    private static void wrapPeerAndHeapBases() {
        Rocshmem shmem = Rocshmem.current();
        TorchShmem torch = TorchShmem.of(shmem);
        int me = shmem.myPe();
        int other = 1 - me;
        try (SymmetricBuffer buffer = shmem.calloc(N, Long.BYTES)) {
            SymmetricLongs view = buffer.asLongs();
            view.copyFrom(stamp(me, N, 7));
            try (SymmetricTensor wrapped = torch.wrap(view, ScalarType.Long, 2, N / 2)) {
                assertEquals(view.address(), wrapped.tensor().data_ptr().address());
                assertFalse(wrapped.ownsMemory());
                assertArrayEquals(stamp(me, N, 7), longs(wrapped.tensor()));
                wrapped.tensor().add_(new Scalar(5));                      // torch writes, the view sees it
                long[] plusFive = stamp(me, N, 7);
                for (int i = 0; i < N; i++) {
                    plusFive[i] += 5;
                }
                assertArrayEquals(plusFive, view.toArray());
                shmem.barrierAll();

                assertSame(wrapped.tensor(), torch.peer(wrapped, me).orElseThrow());
                Tensor peer = torch.peer(wrapped, other).orElseThrow();
                long[] othersPlusFive = stamp(other, N, 7);
                for (int i = 0; i < N; i++) {
                    othersPlusFive[i] += 5;
                }
                assertArrayEquals(othersPlusFive, longs(peer));       // direct loads of the other PE's copy

                Tensor bases = torch.heapBases(wrapped);
                assertEquals(ScalarType.Long, bases.scalar_type().intern());
                assertArrayEquals(new long[] {2}, TorchShmem.longs(bases.sizes()));
                long[] table = longs(bases);
                assertArrayEquals(view.peerAddresses(), table);
                assertEquals(view.address(), table[me]);
                assertNotEquals(0, table[other]);
                shmem.barrierAll();

                wrapped.close();
                assertEquals(0, peer.numel(), "a peer tensor is emptied with its symmetric tensor");
                assertEquals(0, wrapped.isClosed() ? 0 : 1);
            }
            // closing a wrapped tensor leaves the view's memory alone
            assertEquals(stamp(me, N, 7)[3] + 5, view.get(3));
            shmem.barrierAll();
        }
    }

    private static void misuse(Rocshmem shmem) {
        TorchShmem torch = TorchShmem.of(shmem);
        try (HipStream stream = HipStream.create();
             SymmetricTensor a = torch.create(ScalarType.Float, 8);
             SymmetricTensor b = torch.create(ScalarType.Float, 6);
             SymmetricTensor c = torch.create(ScalarType.Byte, 3);
             SymmetricBuffer buffer = shmem.calloc(4, Long.BYTES)) {
            String m = assertThrows(IllegalArgumentException.class, () -> torch.put(a, b, 0, stream)).getMessage();
            assertTrue(m.contains("differ in size"), m);
            assertThrows(IllegalArgumentException.class, () -> torch.get(a, b, 0, stream));
            m = assertThrows(IllegalArgumentException.class,
                    () -> torch.alltoall(shmem.world(), c, c, stream)).getMessage();
            assertTrue(m.contains("multiple"), m);
            m = assertThrows(IllegalArgumentException.class,
                    () -> torch.wrap(buffer.asLongs(), ScalarType.Long, 3)).getMessage();
            assertTrue(m.contains("24 bytes") && m.contains("32"), m);
            m = assertThrows(IllegalArgumentException.class, () -> torch.create(ScalarType.Float, 2, -1))
                    .getMessage();
            assertTrue(m.contains("negative"), m);
            m = assertThrows(IllegalArgumentException.class, () -> torch.create(ScalarType.QInt8, 4)).getMessage();
            assertTrue(m.contains("QInt8"), m);
            assertThrows(IllegalArgumentException.class, () -> torch.peer(a, 2));

            // symmetric(): finds the tensor, refuses private results and non-contiguous views
            assertSame(a, torch.symmetric(a.tensor()));
            m = assertThrows(IllegalArgumentException.class, () -> torch.symmetric(a.tensor().mul(new Scalar(2))))
                    .getMessage();
            assertTrue(m.contains("not symmetric"), m);
            try (SymmetricTensor square = torch.create(ScalarType.Float, 2, 4)) {
                m = assertThrows(IllegalArgumentException.class, () -> torch.symmetric(square.tensor().t()))
                        .getMessage();
                assertTrue(m.contains("not contiguous"), m);
            }

            // release: explicit close is idempotent, and every use after it throws
            Tensor kept = b.tensor();
            b.close();
            assertDoesNotThrow(b::close);
            assertTrue(b.isClosed());
            assertEquals(0, kept.numel(), "the torch tensor is emptied at release");
            assertThrows(RocshmemStateException.class, b::tensor);
            assertThrows(RocshmemStateException.class, () -> torch.put(a, b, 0, stream));
            assertThrows(RocshmemStateException.class, () -> torch.heapBases(b));
            assertThrows(IllegalArgumentException.class, () -> torch.symmetric(kept));
            assertEquals(floats(a.tensor()).length, 8);
            shmem.barrierAll();
        }
    }

    @Test
    @MultiPe(value = 4, lifecycle = InitializedPe.class, timeoutSeconds = 150, env = "ROCSHMEM_EMU_PES_PER_NODE=2")
    void alltoallBroadcastAndPeersOnFourPesInTwoSimulatedNodes() {
        Rocshmem shmem = Rocshmem.current();
        TorchShmem torch = TorchShmem.of(shmem);
        int me = shmem.myPe();
        int pes = 4;
        int block = 3;
        try (HipStream stream = HipStream.create();
             SymmetricTensor source = torch.create(ScalarType.Long, pes, block);
             SymmetricTensor destination = torch.create(ScalarType.Long, pes, block);
             SymmetricTensor root = torch.create(ScalarType.Long, 5);
             SymmetricTensor received = torch.create(ScalarType.Long, 5)) {
            // block j of PE i holds 100*i + 10*j + k
            long[] mine = new long[pes * block];
            for (int j = 0; j < pes; j++) {
                for (int k = 0; k < block; k++) {
                    mine[j * block + k] = 100L * me + 10L * j + k;
                }
            }
            set(source.tensor(), mine);
            set(root.tensor(), new long[] {me, me + 1, me + 2, me + 3, me + 4});
            set(received.tensor(), new long[] {-1, -1, -1, -1, -1});
            shmem.barrierAll();
            torch.alltoall(shmem.world(), destination, source, stream);
            torch.broadcast(shmem.world(), received, root, 2, stream);
            stream.synchronize();
            shmem.barrierAll();
            long[] expected = new long[pes * block];
            for (int i = 0; i < pes; i++) {
                for (int k = 0; k < block; k++) {
                    expected[i * block + k] = 100L * i + 10L * me + k;
                }
            }
            assertArrayEquals(expected, longs(destination.tensor()));
            assertArrayEquals(new long[] {2, 3, 4, 5, 6}, longs(received.tensor()));
            assertEquals(4, torch.heapBases(source).numel());
            shmem.barrierAll();
        }
        peersAcrossSimulatedNodes(shmem, torch);
    }

    /** Nodes {0, 1} and {2, 3}: a peer tensor exists within the node only, a put reaches the other node. */
    private static void peersAcrossSimulatedNodes(Rocshmem shmem, TorchShmem torch) {
        int me = shmem.myPe();
        int mate = me ^ 1;              // same node
        int across = (me + 2) % 4;      // the other node
        try (HipStream stream = HipStream.create();
             SymmetricTensor t = torch.create(ScalarType.Float, 4);
             SymmetricTensor d = torch.create(ScalarType.Float, 4)) {
            t.tensor().fill_(new Scalar(1.5f + me));
            shmem.barrierAll();
            assertEquals(Optional.empty(), torch.peer(t, across));
            Tensor sameNode = torch.peer(t, mate).orElseThrow();
            float m = 1.5f + mate;
            assertArrayEquals(new float[] {m, m, m, m}, floats(sameNode));
            assertTrue(torch.peer(t, me).isPresent());
            long[] bases = longs(torch.heapBases(t));
            assertEquals(0, bases[across]);
            assertNotEquals(0, bases[mate]);
            assertEquals(t.address(), bases[me]);
            torch.put(d, t, across, stream);          // RMA still reaches the other node
            stream.synchronize();
            shmem.barrierAll();
            float v = 1.5f + across;
            assertArrayEquals(new float[] {v, v, v, v}, floats(d.tensor()));
            shmem.barrierAll();
        }
    }
}
