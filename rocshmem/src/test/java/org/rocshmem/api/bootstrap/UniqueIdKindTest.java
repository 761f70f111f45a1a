package org.rocshmem.api.bootstrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** rocSHMEM and RCCL ids sharing one rendezvous, in either order (ranks as threads of this JVM). */
@Timeout(30)
class UniqueIdKindTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** Counts this rank's exchange calls, so the test can see that a foreign id made it ask again. */
    private static final class CountingExchange implements UniqueIdExchange {
        final UniqueIdExchange inner;
        final AtomicInteger calls = new AtomicInteger();

        CountingExchange(UniqueIdExchange inner) {
            this.inner = inner;
        }

        @Override
        public byte[] exchange(int rank, int nranks, java.util.function.Supplier<byte[]> createOnRoot) {
            calls.incrementAndGet();
            return inner.exchange(rank, nranks, createOnRoot);
        }
    }

    @Test
    void aFastRankAskingForTheSecondIdWhileRankZeroServesTheFirstAsksAgain() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        byte[] rcclId = filled(7, 128);
        byte[] shmemId = filled(3, 128);
        ExecutorService ranks = Executors.newCachedThreadPool();
        try {
            UniqueIdExchange tcp = new TcpUniqueIdExchange("127.0.0.1", port, "secret", TIMEOUT);
            CountingExchange rankOne = new CountingExchange(tcp);
            // RCCL first, then rocSHMEM, over one port. Rank 2 is late for RCCL, so rank 1 asks for the rocSHMEM id
            // while rank 0 still serves the RCCL one, and receives the RCCL id first.
            Future<byte[][]> r0 = ranks.submit(() -> new byte[][] {
                UniqueIdKind.RCCL.exchange(tcp, 0, 3, TIMEOUT, rcclId::clone),
                UniqueIdKind.ROCSHMEM.exchange(tcp, 0, 3, TIMEOUT, shmemId::clone)});
            Future<byte[][]> r1 = ranks.submit(() -> new byte[][] {
                UniqueIdKind.RCCL.exchange(rankOne, 1, 3, TIMEOUT, UniqueIdKindTest::notOnThisRank),
                UniqueIdKind.ROCSHMEM.exchange(rankOne, 1, 3, TIMEOUT, UniqueIdKindTest::notOnThisRank)});
            Future<byte[][]> r2 = ranks.submit(() -> {
                Thread.sleep(1500);
                return new byte[][] {
                    UniqueIdKind.RCCL.exchange(tcp, 2, 3, TIMEOUT, UniqueIdKindTest::notOnThisRank),
                    UniqueIdKind.ROCSHMEM.exchange(tcp, 2, 3, TIMEOUT, UniqueIdKindTest::notOnThisRank)};
            });
            for (Future<byte[][]> rank : java.util.List.of(r0, r1, r2)) {
                byte[][] ids = rank.get();
                assertArrayEquals(rcclId, ids[0]);
                assertArrayEquals(shmemId, ids[1]);
            }
            assertTrue(rankOne.calls.get() > 2, "rank 1 should have received the RCCL id for its rocSHMEM request and"
                    + " asked again; it made " + rankOne.calls.get() + " exchange calls");
        } finally {
            ranks.shutdownNow();
            assertTrue(ranks.awaitTermination(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void onlyForeignIdsUntilTheTimeoutIsAClearError() {
        UniqueIdExchange alwaysRccl = (rank, nranks, create) -> UniqueIdKind.RCCL.tagged(filled(1, 128));
        long start = System.nanoTime();
        BootstrapException e = assertThrows(BootstrapException.class, () -> UniqueIdKind.ROCSHMEM.exchange(alwaysRccl,
                1, 2, Duration.ofMillis(300), UniqueIdKindTest::notOnThisRank));
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        assertEquals("rank 1 received 136 bytes that are not a ROCSHMEM unique id from rank 0 until the bootstrap"
                + " timeout (300 ms); does every rank initialize the same libraries?", e.getMessage());
        assertTrue(elapsedMillis >= 300 && elapsedMillis < 5_000, elapsedMillis + " ms");
    }

    @Test
    void tagsTellTheKindsApartAndTheRootGetsItsOwnIdBack() {
        byte[] id = filled(5, 16);
        assertTrue(UniqueIdKind.RCCL.isTagged(UniqueIdKind.RCCL.tagged(id)));
        assertFalse(UniqueIdKind.ROCSHMEM.isTagged(UniqueIdKind.RCCL.tagged(id)));
        assertFalse(UniqueIdKind.RCCL.isTagged(id));
        UniqueIdExchange loopback = (rank, nranks, create) -> create.get();
        assertArrayEquals(id, UniqueIdKind.ROCSHMEM.exchange(loopback, 0, 1, TIMEOUT, id::clone));
    }

    private static byte[] notOnThisRank() {
        throw new AssertionError("only rank 0 may create the id");
    }

    private static byte[] filled(int value, int length) {
        byte[] bytes = new byte[length];
        java.util.Arrays.fill(bytes, (byte) value);
        return bytes;
    }
}
