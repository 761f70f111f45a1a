package org.rocshmem.api.bootstrap;

import static org.rocshmem.api.bootstrap.RendezvousProtocol.*;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Rank 0's side: serves the id to every other rank until all acknowledged. Connections are served concurrently, each
 * within an overall budget ({@value #PER_CONNECTION_MILLIS} ms, and never past the exchange's deadline), so silent or
 * slow connections (a port scanner, a stalled process) neither delay the real PEs nor stretch the timeout.
 */
final class RendezvousServer {
    private static final System.Logger LOG = System.getLogger(RendezvousServer.class.getName());
    /** Overall budget of one connection, whatever the peer sends or does not send. */
    static final long PER_CONNECTION_MILLIS = 5_000;
    /** Connections served at the same time; when all are busy, a new one is closed and its client retries. */
    private static final int MAX_CONCURRENT = 64;
    /** How often the accept loop looks whether every rank was served. */
    private static final int ACCEPT_POLL_MILLIS = 50;

    private final InetSocketAddress address;
    private final byte[] secret;
    private final long timeoutMillis;

    private final Set<Integer> servedRanks = new ConcurrentSkipListSet<>();
    private final AtomicInteger rejectedConnections = new AtomicInteger();

    RendezvousServer(InetSocketAddress address, byte[] secret, long timeoutMillis) {
        this.address = address;
        this.secret = secret;
        this.timeoutMillis = timeoutMillis;
    }

    void serve(byte[] id, int nranks) {
        long start = System.nanoTime();
        long deadline = start + timeoutMillis * 1_000_000L;
        ExecutorService handlers = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "rocshmem-rendezvous-peer");
            thread.setDaemon(true);
            return thread;
        });
        Semaphore slots = new Semaphore(MAX_CONCURRENT);
        Set<Socket> open = ConcurrentHashMap.newKeySet();
        try (ServerSocket listener = new ServerSocket()) {
            listener.setReuseAddress(true);
            bind(listener, nranks);
            while (servedRanks.size() < nranks - 1) {
                long remainingNanos = deadline - System.nanoTime();
                if (remainingNanos <= 0) {
                    throw timeout(nranks, start);
                }
                listener.setSoTimeout((int) Math.max(1, Math.min(remainingNanos / 1_000_000L, ACCEPT_POLL_MILLIS)));
                Socket peer;
                try {
                    peer = listener.accept();
                } catch (SocketTimeoutException e) {
                    continue;
                }
                if (!slots.tryAcquire()) {
                    SocketDeadline.closeQuietly(peer);
                    continue;
                }
                open.add(peer);
                long connectionDeadline = Math.min(deadline, System.nanoTime() + PER_CONNECTION_MILLIS * 1_000_000L);
                handlers.execute(() -> {
                    try (SocketDeadline guard = SocketDeadline.closeAt(peer, connectionDeadline)) {
                        peer.setSoTimeout((int) Math.max(1, PER_CONNECTION_MILLIS));
                        serveOne(peer, id, nranks);
                    } catch (IOException e) {
                        // One broken, silent or slow connection must not fail the whole job.
                        LOG.log(System.Logger.Level.DEBUG, "rendezvous connection failed: {0}", e.toString());
                    } finally {
                        SocketDeadline.closeQuietly(peer);
                        open.remove(peer);
                        slots.release();
                    }
                });
            }
        } catch (IOException e) {
            throw new BootstrapException("rank 0 rendezvous on " + describe() + " failed: " + e.getMessage(), e);
        } finally {
            handlers.shutdownNow();
            open.forEach(SocketDeadline::closeQuietly);
        }
    }

    private void bind(ServerSocket listener, int nranks) {
        try {
            listener.bind(address, Math.max(50, nranks));
        } catch (IOException e) {
            throw new BootstrapException("rank 0 cannot listen on " + describe() + " (" + e.getMessage()
                    + "); set MASTER_ADDR/MASTER_PORT to a local address and free port", e);
        }
    }

    private void serveOne(Socket peer, byte[] id, int nranks) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(peer.getInputStream()));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(peer.getOutputStream()));
        byte[] serverNonce = nonce();
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        out.write(serverNonce);
        out.flush();

        if (in.readInt() != MAGIC) {
            throw new IOException("peer " + peer.getRemoteSocketAddress() + " does not speak the rocSHMEM rendezvous");
        }
        int rank = in.readInt();
        byte[] clientNonce = readExactly(in, NONCE_BYTES);
        byte[] clientMac = readExactly(in, MAC_BYTES);

        if (!macMatches(RendezvousProtocol.clientMac(secret, serverNonce, clientNonce, rank), clientMac)) {
            rejectedConnections.incrementAndGet();
            LOG.log(System.Logger.Level.WARNING, "rank 0 rejected a connection from {0} claiming rank {1}: "
                    + "authentication failed (different ROCSHMEM_BOOTSTRAP_SECRET?)", peer.getRemoteSocketAddress(), rank);
            out.writeByte(REJECTED_AUTH);
            out.flush();
            return;
        }
        if (rank < 1 || rank >= nranks) {
            LOG.log(System.Logger.Level.WARNING, "rank 0 rejected rank {0}: not in [1, {1})", rank, nranks);
            out.writeByte(REJECTED_RANK);
            out.flush();
            return;
        }
        out.writeByte(ACCEPTED);
        out.write(RendezvousProtocol.serverMac(secret, clientNonce, serverNonce, rank, id));
        out.writeInt(id.length);
        out.write(id);
        out.flush();
        if (in.readByte() == ACK) {
            servedRanks.add(rank); // a set: a rank that reconnects after a lost ACK is counted once
        }
    }

    private BootstrapException timeout(int nranks, long startNanos) {
        List<Integer> missing = new ArrayList<>();
        for (int rank = 1; rank < nranks; rank++) {
            if (!servedRanks.contains(rank)) {
                missing.add(rank);
            }
        }
        int rejections = rejectedConnections.get();
        String rejected = rejections == 0 ? "" : "; " + rejections + " connection(s) rejected for a wrong bootstrap secret";
        return new BootstrapException("rank 0 timed out after " + SocketDeadline.elapsedMillis(startNanos)
                + " ms (bootstrap timeout " + timeoutMillis + " ms) on " + describe() + ": "
                + servedRanks.size() + " of " + (nranks - 1) + " peers arrived and received the unique id"
                + " (missing ranks " + missing + ")" + rejected);
    }

    private String describe() {
        return address.getHostString() + ":" + address.getPort();
    }
}
