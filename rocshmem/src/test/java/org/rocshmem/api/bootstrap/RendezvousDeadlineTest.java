package org.rocshmem.api.bootstrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every wait of the TCP rendezvous has a deadline that a misbehaving peer cannot stretch: silent connections do not
 * delay real peers (they are served concurrently), a client that drips bytes cannot hold rank 0 past its timeout,
 * a stalled server cannot hold a client past its timeout, and messages report the time really spent.
 */
@Timeout(60)
class RendezvousDeadlineTest {
    private static final String HOST = "127.0.0.1";

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<Socket> sockets = java.util.Collections.synchronizedList(new ArrayList<>());
    private int port;

    @BeforeEach
    void pickPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            port = probe.getLocalPort();
        }
    }

    @AfterEach
    void cleanUp() throws Exception {
        synchronized (sockets) {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(10, TimeUnit.SECONDS));
    }

    private Future<byte[]> rank(int rank, int nranks, Duration timeout, byte[] id) {
        TcpUniqueIdExchange exchange = new TcpUniqueIdExchange(HOST, port, "secret", timeout);
        return threads.submit(() -> exchange.exchange(rank, nranks, () -> id));
    }

    /** A connection to rank 0 that never says anything (retried until rank 0 listens). */
    private Socket silentConnection() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true) {
            try {
                Socket socket = new Socket();
                socket.connect(new InetSocketAddress(HOST, port), 1000);
                sockets.add(socket);
                return socket;
            } catch (IOException notYetListening) {
                if (System.nanoTime() > deadline) {
                    throw notYetListening;
                }
                Thread.sleep(20);
            }
        }
    }

    @Test
    void silentConnectionsDoNotDelayRealPeers() throws Exception {
        byte[] id = {4, 2};
        Future<byte[]> root = rank(0, 2, Duration.ofSeconds(20), id);
        for (int i = 0; i < 3; i++) {
            silentConnection(); // served one at a time, each used to cost the real peer 5 s
        }
        long start = System.nanoTime();
        assertArrayEquals(id, rank(1, 2, Duration.ofSeconds(20), null).get());
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertArrayEquals(id, root.get());
        assertTrue(millis < 2_000, "rank 1 needed " + millis + " ms behind 3 silent connections");
    }

    @Test
    void aDrippingClientCannotHoldRankZeroPastItsTimeout() throws Exception {
        long start = System.nanoTime();
        Future<byte[]> root = rank(0, 2, Duration.ofMillis(1500), new byte[] {1});
        Socket dripping = silentConnection();
        Future<?> drip = threads.submit(() -> {
            OutputStream out = dripping.getOutputStream();
            while (true) {
                out.write(0); // one byte at a time: every read succeeds, none completes the handshake
                out.flush();
                Thread.sleep(300);
            }
        });
        ExecutionException failure = assertThrows(ExecutionException.class, root::get);
        long millis = (System.nanoTime() - start) / 1_000_000;
        drip.cancel(true);
        String message = failure.getCause().getMessage();
        assertTrue(failure.getCause() instanceof BootstrapException, String.valueOf(failure.getCause()));
        assertTrue(millis < 3_000, "rank 0 gave up only after " + millis + " ms");
        assertTrue(message.matches("rank 0 timed out after 1[5-9]\\d\\d ms \\(bootstrap timeout 1500 ms\\).*"), message);
        assertTrue(message.contains("missing ranks [1]"), message);
    }

    @Test
    void aStalledServerCannotHoldAClientPastItsTimeout() throws Exception {
        try (ServerSocket stalled = new ServerSocket(port, 10, InetAddress.getByName(HOST))) {
            threads.submit(() -> {
                Socket accepted = stalled.accept(); // accepts, then never answers
                sockets.add(accepted);
                return null;
            });
            long start = System.nanoTime();
            BootstrapException e = assertThrows(BootstrapException.class,
                    () -> new TcpUniqueIdExchange(HOST, port, "secret", Duration.ofMillis(1200))
                            .exchange(1, 2, () -> null));
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(millis < 3_000, "rank 1 gave up only after " + millis + " ms");
            assertTrue(e.getMessage().matches("rank 1 timed out after 1[2-9]\\d\\d ms \\(bootstrap timeout 1200 ms\\)"
                    + " waiting for rank 0 at 127\\.0\\.0\\.1:" + port + ".*"), e.getMessage());
        }
    }
}
