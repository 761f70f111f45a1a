package org.rocshmem.api.rccl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicReference;
import org.bytedeco.javacpp.DoublePointer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.CType;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.api.testing.Pe;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceBuffer;
import org.rocshmem.api.hip.DeviceMemory;

/** The typed API around the collectives: RCCL and rocSHMEM in one job, checks, errors, lifecycle. */
@Tag("emu")
class CommunicatorApiTest {

    @Test
    @MultiPe(value = 2, timeoutSeconds = 120)
    void rcclAndRocshmemShareStreamsAndSymmetricMemory() {
        // rocSHMEM first, then RCCL over the same launcher rendezvous port.
        try (Rocshmem shmem = Rocshmem.init();
             Communicator comm = Communicator.init();
             HipStream stream = HipStream.create();
             SymmetricBuffer inbox = shmem.calloc(4, Double.BYTES);
             SymmetricBuffer value = shmem.malloc(4 * Double.BYTES);
             SymmetricBuffer sum = shmem.calloc(4, Double.BYTES)) {
            int me = comm.rank();
            assertEquals(shmem.myPe(), me);
            assertEquals(2, comm.size());
            assertEquals(0, comm.device());
            assertEquals("2.27.7", Rccl.version());
            assertTrue(Rccl.library().contains("CPU RCCL"), Rccl.library());

            // One stream for both libraries: a rocSHMEM put and barrier, then an RCCL all-reduce of what arrived.
            value.asDoubles().copyFrom(new double[] {me + 1, me + 1, me + 1, 10 * (me + 1)});
            inbox.asDoubles().putmemOnStream(stream, 1 - me, value.asDoubles());
            shmem.barrierAll(stream);
            comm.allReduce(DeviceBuffer.of(inbox, DataType.FLOAT64), DeviceBuffer.of(sum, DataType.FLOAT64), 4, RedOp.SUM,
                    stream);
            stream.synchronize();
            assertArrayEquals(new double[] {3, 3, 3, 30}, sum.asDoubles().toArray());

            // A typed view gives RCCL its count and type
            DeviceBuffer view = sum.asDoubles().asDeviceBuffer();
            assertEquals(4, view.elements());
            assertEquals(DataType.FLOAT64, view.type());
            assertEquals(DataType.UINT64, sum.asLongs(CType.SIZE).asDeviceBuffer().type());
            assertThrows(IllegalArgumentException.class, () -> sum.asShorts().asDeviceBuffer());
            comm.allReduce(value.asDoubles().asDeviceBuffer(), view, 4, RedOp.MAX, stream);
            stream.synchronize();
            assertArrayEquals(new double[] {2, 2, 2, 20}, sum.asDoubles().toArray());
            double[] got;

            // A Pointer view of symmetric memory works too, and its extent is checked.
            DoublePointer source = value.asDoublePointer();
            DoublePointer target = sum.asDoublePointer();
            comm.broadcast(DeviceBuffer.of(source, DataType.FLOAT64), DeviceBuffer.of(target, DataType.FLOAT64), 4, 1,
                    stream);
            stream.synchronize();
            got = sum.asDoubles().toArray();
            assertArrayEquals(new double[] {2, 2, 2, 20}, got);
            IndexOutOfBoundsException tooMany = assertThrows(IndexOutOfBoundsException.class,
                    () -> comm.allReduce(DeviceBuffer.of(inbox, DataType.FLOAT64), DeviceBuffer.of(sum, DataType.FLOAT64), 5,
                            RedOp.SUM, stream));
            assertTrue(tooMany.getMessage().contains("needs 5 elements"), tooMany.getMessage());
            assertThrows(IndexOutOfBoundsException.class,
                    () -> comm.broadcast(DeviceBuffer.of(source, DataType.FLOAT64), DeviceBuffer.of(target, DataType.FLOAT64), 5,
                            0, stream));
            assertThrows(IndexOutOfBoundsException.class,
                    () -> comm.allGather(DeviceBuffer.of(inbox, DataType.FLOAT64), DeviceBuffer.of(sum, DataType.FLOAT64), 3,
                            stream));  // needs 3 x 2 ranks
        }
    }

    @Test
    @MultiPe(value = 3, timeoutSeconds = 120)
    void rcclFirstThenRocshmemOverTheSameRendezvous() {
        // The reverse order of the test above, with 3 PEs: every rank must get each library's own id.
        try (Communicator comm = Communicator.init();
             Rocshmem shmem = Rocshmem.init();
             HipStream stream = HipStream.create();
             SymmetricBuffer ranks = shmem.calloc(3, Long.BYTES);
             SymmetricBuffer total = shmem.calloc(1, Long.BYTES)) {
            int me = shmem.myPe();
            assertEquals(comm.rank(), me);
            ranks.asLongs().p((me + 1) % 3, me, me + 1);            // rocSHMEM: each PE writes into the next
            shmem.barrierAll();
            long[] mine = ranks.asLongs().toArray();
            assertEquals((me + 2) % 3 + 1, mine[(me + 2) % 3]);
            total.asLongs().copyFrom(new long[] {me + 1});
            comm.allReduce(DeviceBuffer.of(total, DataType.INT64), DeviceBuffer.of(total, DataType.INT64), 1, RedOp.SUM,
                    stream);                                                 // RCCL: 1 + 2 + 3
            stream.synchronize();
            assertEquals(6, total.asLongs().g(me, 0));
        }
    }

    @Test
    @MultiPe(value = 2, lifecycle = RcclPe.class, timeoutSeconds = 120)
    void argumentsAreCheckedAndFailuresBecomeExceptions() throws Exception {
        Communicator comm = RcclPe.comm();
        HipStream stream = RcclPe.stream();
        int me = comm.rank();
        try (DeviceMemory floats = DeviceMemory.allocate(4, DataType.FLOAT32);
             DeviceMemory ints = DeviceMemory.allocate(4, DataType.INT32)) {
            DeviceBuffer f = floats.buffer();
            IllegalArgumentException mismatch = assertThrows(IllegalArgumentException.class,
                    () -> comm.allReduce(f, ints.buffer(), 4, RedOp.SUM, stream));
            assertTrue(mismatch.getMessage().contains("INT32"), mismatch.getMessage());
            assertThrows(IllegalArgumentException.class, () -> comm.allReduce(f, f, -1, RedOp.SUM, stream));
            assertThrows(IndexOutOfBoundsException.class, () -> comm.broadcast(f, f, 4, 2, stream));
            assertThrows(IndexOutOfBoundsException.class, () -> comm.send(f, 4, -1, stream));
            assertThrows(IndexOutOfBoundsException.class, () -> f.slice(3, 2));
            assertThrows(IllegalArgumentException.class, () -> comm.allReduce(null, f, 4, RedOp.SUM, stream));
            assertThrows(IllegalArgumentException.class, () -> DeviceBuffer.of(0, 1, DataType.INT8));

            PreMulSum doubles = comm.createPreMulSum(2.0, DataType.FLOAT64);
            assertThrows(IllegalArgumentException.class, () -> comm.allReduce(f, f, 4, doubles, stream));
            doubles.close();
            assertThrows(IllegalStateException.class, doubles::code);

            // A PreMulSum really premultiplies: (2 x 1) + (2 x 2) = 6 on every rank.
            floats.copyFromHost(me + 1, me + 1, me + 1, me + 1);
            try (PreMulSum twice = comm.createPreMulSum(2.0, DataType.FLOAT32)) {
                comm.allReduce(f, f, 4, twice, stream);
                stream.synchronize();
            }
            assertArrayEquals(new double[] {6, 6, 6, 6}, floats.copyToHost());

            // Groups belong to their thread.
            Group group = Rccl.group();
            AtomicReference<Throwable> fromOtherThread = new AtomicReference<>();
            Thread other = new Thread(() -> {
                try {
                    group.close();
                } catch (Throwable t) {
                    fromOtherThread.set(t);
                }
            });
            other.start();
            other.join();
            assertTrue(fromOtherThread.get() instanceof IllegalStateException, String.valueOf(fromOtherThread.get()));
            group.close();

            // An RCCL failure surfaces as an RcclException with the result name and RCCL's last error: rank 0
            // runs an all-reduce while rank 1 runs a broadcast on a scratch communicator.
            Communicator scratch = comm.split(0, me).orElseThrow();
            if (me == 0) {
                scratch.allReduce(f, f, 4, RedOp.SUM, stream);
            } else {
                scratch.broadcast(f, f, 4, 0, stream);
            }
            stream.synchronize();
            RcclException e = assertThrows(RcclException.class, scratch::checkAsyncError);
            assertEquals(me == 0 ? RcclResult.REMOTE_ERROR : RcclResult.INVALID_USAGE, e.result());
            assertTrue(e.getMessage().contains(e.resultName()), e.getMessage());
            if (me == 1) {
                assertTrue(e.lastError().contains("expected ncclBroadcast data"), e.lastError());
            }
            scratch.close();  // failed: aborted
            assertThrows(IllegalStateException.class, scratch::asyncError);

            // Each rank the root of its own reduce: both only receive. NCCL hangs; the emulator reports the
            // deadlock on both ranks, naming each rank's root, well before the test's timeout.
            Communicator roots = comm.split(0, me).orElseThrow();
            long start = System.nanoTime();
            roots.reduce(f, f, 4, RedOp.SUM, me, stream);
            stream.synchronize();
            RcclException deadlock = assertThrows(RcclException.class, roots::checkAsyncError);
            assertTrue(System.nanoTime() - start < Duration.ofSeconds(10).toNanos(), "the deadlock took too long");
            assertTrue(deadlock.result() == RcclResult.INVALID_USAGE || deadlock.result() == RcclResult.REMOTE_ERROR,
                    deadlock.result().toString());
            assertTrue(deadlock.lastError().contains("deadlock: ranks 0,1 wait only for each other"), deadlock.lastError());
            assertTrue(deadlock.lastError().contains("ncclReduce #1 with root 0 receives from rank 1"), deadlock.lastError());
            assertTrue(deadlock.lastError().contains("ncclReduce #1 with root 1 receives from rank 0"), deadlock.lastError());
            roots.close();
        }

        // Init from a unique id with a Config: the id travels through the test's shared directory.
        if (me == 0) {
            Pe.publish("uid", HexFormat.of().formatHex(Rccl.createUniqueId().bytes()));
        } else {
            Pe.publish("uid", "");
        }
        UniqueId id = UniqueId.of(HexFormat.of().parseHex(Pe.collect("uid", Duration.ofSeconds(30)).get(0)));
        assertThrows(IllegalArgumentException.class, () -> UniqueId.of(new byte[3]));
        try (Communicator named = Communicator.init(2, id, me, Config.builder().commName("api-test").blocking(true).build());
             DeviceMemory one = DeviceMemory.allocate(1, DataType.INT64)) {
            assertEquals(me, named.rank());
            one.copyFromHost(40 + me);
            named.allReduce(one.buffer(), one.buffer(), 1, RedOp.MIN, stream);
            stream.synchronize();
            assertEquals(40, one.copyToHost()[0]);
            named.finalizeCommunicator();
            assertThrows(IllegalStateException.class,
                    () -> named.allReduce(one.buffer(), one.buffer(), 1, RedOp.MIN, stream));
        }
    }
}
