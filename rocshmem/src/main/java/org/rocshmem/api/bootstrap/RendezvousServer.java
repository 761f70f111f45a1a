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
import java.util.TreeSet;

/** Rank 0's side: serves the id to every other rank, one connection at a time, until all acknowledged. */
final class RendezvousServer {
    private static final System.Logger LOG = System.getLogger(RendezvousServer.class.getName());
    /** A silent or half-open connection must not stall the peers queued behind it for long. */
    private static final int PER_CONNECTION_TIMEOUT_MILLIS = 5_000;

    private final InetSocketAddress address;
    private final byte[] secret;
    private final long timeoutMillis;

    private final Set<Integer> servedRanks = new TreeSet<>();
    private int rejectedConnections;

    RendezvousServer(InetSocketAddress address, byte[] secret, long timeoutMillis) {
        this.address = address;
        this.secret = secret;
        this.timeoutMillis = timeoutMillis;
    }

    void serve(byte[] id, int nranks) {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        try (ServerSocket listener = new ServerSocket()) {
            listener.setReuseAddress(true);
            bind(listener, nranks);
            while (servedRanks.size() < nranks - 1) {
                long remaining = (deadline - System.nanoTime()) / 1_000_000L;
                if (remaining <= 0) {
                    throw timeout(nranks);
                }
                listener.setSoTimeout((int) Math.min(remaining, Integer.MAX_VALUE));
                try (Socket peer = listener.accept()) {
                    peer.setSoTimeout((int) Math.min(remaining, PER_CONNECTION_TIMEOUT_MILLIS));
                    serveOne(peer, id, nranks);
                } catch (SocketTimeoutException e) {
                    // Either accept() reached the deadline (checked at the top of the loop) or a peer stalled.
                } catch (IOException e) {
                    // One broken connection (peer crashed, port scanner...) must not fail the whole job.
                    LOG.log(System.Logger.Level.DEBUG, "rendezvous connection failed: {0}", e.toString());
                }
            }
        } catch (IOException e) {
            throw new BootstrapException("rank 0 rendezvous on " + describe() + " failed: " + e.getMessage(), e);
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
            rejectedConnections++;
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

    private BootstrapException timeout(int nranks) {
        List<Integer> missing = new ArrayList<>();
        for (int rank = 1; rank < nranks; rank++) {
            if (!servedRanks.contains(rank)) {
                missing.add(rank);
            }
        }
        String rejected = rejectedConnections == 0 ? ""
                : "; " + rejectedConnections + " connection(s) rejected for a wrong bootstrap secret";
        return new BootstrapException("rank 0 timed out after " + timeoutMillis + " ms on " + describe() + ": "
                + servedRanks.size() + " of " + (nranks - 1) + " peers arrived and received the unique id"
                + " (missing ranks " + missing + ")" + rejected);
    }

    private String describe() {
        return address.getHostString() + ":" + address.getPort();
    }
}
