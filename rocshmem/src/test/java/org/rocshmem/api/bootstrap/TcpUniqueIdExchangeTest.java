package org.rocshmem.api.bootstrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The rendezvous protocol with ranks as threads of this JVM (the multi-JVM case is in the *MultiJvm* test). */
@Timeout(30)
class TcpUniqueIdExchangeTest {
    private static final String HOST = "127.0.0.1";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final ExecutorService ranks = Executors.newCachedThreadPool();
    private int port;

    @BeforeEach
    void pickPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            port = probe.getLocalPort();
        }
    }

    @AfterEach
    void stopRanks() throws InterruptedException {
        ranks.shutdownNow();
        assertTrue(ranks.awaitTermination(10, TimeUnit.SECONDS));
    }

    private Future<byte[]> rank(int rank, int nranks, String secret, Duration timeout, Supplier<byte[]> create) {
        TcpUniqueIdExchange exchange = new TcpUniqueIdExchange(HOST, port, secret, timeout);
        return ranks.submit(() -> exchange.exchange(rank, nranks, create));
    }

    private static Supplier<byte[]> notOnThisRank() {
        return () -> {
            throw new AssertionError("only rank 0 may create the id");
        };
    }

    @Test
    void threeRanksReceiveIdenticalBytesCreatedOnceOnRoot() throws Exception {
        byte[] id = new byte[128];
        new java.util.Random(42).nextBytes(id);
        AtomicInteger creations = new AtomicInteger();
        // Clients first: they must retry until rank 0 listens.
        Future<byte[]> r2 = rank(2, 3, "secret", TIMEOUT, notOnThisRank());
        Future<byte[]> r1 = rank(1, 3, "secret", TIMEOUT, notOnThisRank());
        Thread.sleep(200);
        Future<byte[]> r0 = rank(0, 3, "secret", TIMEOUT, () -> {
            creations.incrementAndGet();
            return id.clone();
        });
        assertArrayEquals(id, r0.get());
        assertArrayEquals(id, r1.get());
        assertArrayEquals(id, r2.get());
        assertEquals(1, creations.get());
    }

    @Test
    void singleRankNeedsNoNetwork() {
        byte[] id = {1, 2, 3};
        // Port 1 is never listenable for us: any network use would fail.
        byte[] got = new TcpUniqueIdExchange(HOST, 1, "s", TIMEOUT).exchange(0, 1, () -> id);
        assertArrayEquals(id, got);
    }

    @Test
    void wrongSecretIsRejectedOnBothEndsWhileTheServerKeepsServingLegitimatePeers() throws Exception {
        byte[] id = {9, 8, 7};
        Future<byte[]> root = rank(0, 2, "right", Duration.ofSeconds(3), () -> id);
        Future<byte[]> impostor = rank(1, 2, "wrong", TIMEOUT, notOnThisRank());
        ExecutionException rejected = assertThrows(ExecutionException.class, impostor::get);
        assertTrue(rejected.getCause() instanceof BootstrapException, String.valueOf(rejected.getCause()));
        assertTrue(rejected.getCause().getMessage().contains("authentication failed, the bootstrap secrets differ"),
                rejected.getCause().getMessage());

        Future<byte[]> legitimate = rank(1, 2, "right", TIMEOUT, notOnThisRank());
        assertArrayEquals(id, legitimate.get());
        assertArrayEquals(id, root.get());
    }

    @Test
    void serverTimeoutNamesArrivedAndMissingPeersAndRejections() throws Exception {
        Future<byte[]> root = rank(0, 4, "right", Duration.ofMillis(2500), () -> new byte[] {1});
        assertArrayEquals(new byte[] {1}, rank(2, 4, "right", TIMEOUT, notOnThisRank()).get());
        assertThrows(ExecutionException.class, () -> rank(1, 4, "wrong", TIMEOUT, notOnThisRank()).get());

        ExecutionException failure = assertThrows(ExecutionException.class, root::get);
        String message = failure.getCause().getMessage();
        assertTrue(failure.getCause() instanceof BootstrapException, String.valueOf(failure.getCause()));
        assertTrue(message.matches("rank 0 timed out after 2[5-9]\\d\\d ms \\(bootstrap timeout 2500 ms\\).*"), message);
        assertTrue(message.contains("1 of 3 peers arrived"), message);
        assertTrue(message.contains("missing ranks [1, 3]"), message);
        assertTrue(message.contains("1 connection(s) rejected for a wrong bootstrap secret"), message);
    }

    @Test
    void clientTimeoutNamesTheRendezvousAddress() {
        long start = System.nanoTime();
        BootstrapException e = assertThrows(BootstrapException.class,
                () -> new TcpUniqueIdExchange(HOST, port, "s", Duration.ofMillis(700)).exchange(1, 2, notOnThisRank()));
        long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(e.getMessage().matches("rank 1 timed out after \\d+ ms \\(bootstrap timeout 700 ms\\) waiting for"
                + " rank 0 at 127\\.0\\.0\\.1:" + port + ".*"), e.getMessage());
        assertTrue(e.getMessage().contains("Connection refused"), e.getMessage());
        assertTrue(elapsedMillis >= 700 && elapsedMillis < 5_000, "took " + elapsedMillis + " ms");
    }

    @Test
    void busyPortFailsRankZeroWithAClearMessage() throws Exception {
        try (ServerSocket occupant = new ServerSocket(port, 1, InetAddress.getByName(HOST))) {
            BootstrapException e = assertThrows(BootstrapException.class,
                    () -> new TcpUniqueIdExchange(HOST, port, "s", TIMEOUT).exchange(0, 2, () -> new byte[1]));
            assertTrue(e.getMessage().contains("rank 0 cannot listen on 127.0.0.1:" + port), e.getMessage());
        }
    }

    @Test
    void exchangesCanRunBackToBackOnTheSamePort() throws Exception {
        List<byte[]> received = new ArrayList<>();
        for (byte round = 0; round < 3; round++) {
            byte[] id = {round};
            Future<byte[]> root = rank(0, 2, "s", TIMEOUT, () -> id);
            received.add(rank(1, 2, "s", TIMEOUT, notOnThisRank()).get());
            assertArrayEquals(id, root.get());
        }
        for (byte round = 0; round < 3; round++) {
            assertArrayEquals(new byte[] {round}, received.get(round));
        }
    }
}
