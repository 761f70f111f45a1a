package org.rocshmem.api.bootstrap;

import static org.rocshmem.api.bootstrap.RendezvousProtocol.*;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A non-root rank's side: connects (retrying while rank 0 is not listening yet) and fetches the id. The exchange's
 * deadline bounds everything, including a connection to a server that stalls mid-handshake.
 */
final class RendezvousClient {
    private static final long FIRST_RETRY_DELAY_MILLIS = 20;
    private static final long MAX_RETRY_DELAY_MILLIS = 500;
    private static final int MAX_READ_TIMEOUT_MILLIS = 10_000;

    private final InetSocketAddress address;
    private final byte[] secret;
    private final long timeoutMillis;

    RendezvousClient(InetSocketAddress address, byte[] secret, long timeoutMillis) {
        this.address = address;
        this.secret = secret;
        this.timeoutMillis = timeoutMillis;
    }

    byte[] fetch(int rank) {
        long start = System.nanoTime();
        long deadline = start + timeoutMillis * 1_000_000L;
        long delay = FIRST_RETRY_DELAY_MILLIS;
        IOException lastError = null;
        while (true) {
            long remainingNanos = deadline - System.nanoTime();
            long remaining = Math.max(1, remainingNanos / 1_000_000L);
            if (remainingNanos <= 0) {
                throw new BootstrapException("rank " + rank + " timed out after " + SocketDeadline.elapsedMillis(start)
                        + " ms (bootstrap timeout " + timeoutMillis + " ms) waiting for rank 0 at " + describe()
                        + (lastError == null ? "" : " (last error: " + lastError.getMessage() + ")"), lastError);
            }
            Socket socket = new Socket();
            SocketDeadline guard = SocketDeadline.closeAt(socket, deadline);
            try (socket; guard) {
                // Resolve on every attempt: MASTER_ADDR may only become resolvable once rank 0's host is up.
                InetSocketAddress target = new InetSocketAddress(address.getHostString(), address.getPort());
                socket.connect(target, (int) Math.min(remaining, MAX_READ_TIMEOUT_MILLIS));
                socket.setSoTimeout((int) Math.min(remaining, MAX_READ_TIMEOUT_MILLIS));
                return handshake(socket, rank);
            } catch (IOException e) {
                if (!guard.expired() || lastError == null) {
                    lastError = e; // typically "Connection refused" until rank 0 listens
                }
            }
            sleep(Math.min(delay, Math.max(1, (deadline - System.nanoTime()) / 1_000_000L)));
            delay = Math.min(delay * 2, MAX_RETRY_DELAY_MILLIS);
        }
    }

    private byte[] handshake(Socket socket, int rank) throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        if (in.readInt() != MAGIC || in.readInt() != VERSION) {
            throw new IOException("the service at " + describe() + " is not a compatible rocSHMEM rendezvous");
        }
        byte[] serverNonce = readExactly(in, NONCE_BYTES);
        byte[] clientNonce = nonce();
        out.writeInt(MAGIC);
        out.writeInt(rank);
        out.write(clientNonce);
        out.write(clientMac(secret, serverNonce, clientNonce, rank));
        out.flush();

        byte status = in.readByte();
        if (status == REJECTED_AUTH) {
            throw new BootstrapException("rank 0 at " + describe() + " rejected rank " + rank
                    + ": authentication failed, the bootstrap secrets differ (check ROCSHMEM_BOOTSTRAP_SECRET)");
        }
        if (status == REJECTED_RANK) {
            throw new BootstrapException("rank 0 at " + describe() + " rejected rank " + rank
                    + ": not a valid rank for its job size");
        }
        if (status != ACCEPTED) {
            throw new IOException("unexpected rendezvous status " + status + " from " + describe());
        }
        byte[] mac = readExactly(in, MAC_BYTES);
        int length = in.readInt();
        if (length < 0 || length > MAX_ID_BYTES) {
            throw new IOException("implausible unique id length " + length + " from " + describe());
        }
        byte[] id = readExactly(in, length);
        if (!macMatches(serverMac(secret, clientNonce, serverNonce, rank, id), mac)) {
            throw new BootstrapException("the rendezvous server at " + describe()
                    + " failed authentication: it does not know our bootstrap secret");
        }
        out.writeByte(ACK);
        out.flush();
        return id;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BootstrapException("interrupted while waiting for rank 0", e);
        }
    }

    private String describe() {
        return address.getHostString() + ":" + address.getPort();
    }
}
