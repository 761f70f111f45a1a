package org.rocshmem.api.bootstrap;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@link UniqueIdExchange} over a small TCP rendezvous: rank 0 listens on MASTER_ADDR:MASTER_PORT and hands the
 * id to each other rank after mutual HMAC-SHA256 authentication with the shared bootstrap secret
 * (see {@link RendezvousProtocol}). Rank 0 returns only once every other rank has acknowledged the id, so the
 * listening port is free again when {@code exchange} returns everywhere.
 */
public final class TcpUniqueIdExchange implements UniqueIdExchange {
    private final String host;
    private final int port;
    private final byte[] secret;
    private final Duration timeout;

    public TcpUniqueIdExchange(String host, int port, byte[] secret, Duration timeout) {
        this.host = Objects.requireNonNull(host, "host");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " must be in [1, 65535]");
        }
        this.port = port;
        if (secret == null || secret.length == 0) {
            throw new IllegalArgumentException("the bootstrap secret must not be empty");
        }
        this.secret = secret.clone();
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        this.timeout = timeout;
    }

    public TcpUniqueIdExchange(String host, int port, String secret, Duration timeout) {
        this(host, port, secret.getBytes(StandardCharsets.UTF_8), timeout);
    }

    /** Uses MASTER_ADDR, MASTER_PORT, the bootstrap secret and timeout of {@code env}. */
    public TcpUniqueIdExchange(LaunchEnvironment env) {
        this(env.masterAddr(), env.masterPort(), env.secretBytes(), env.bootstrapTimeout());
    }

    @Override
    public byte[] exchange(int rank, int nranks, Supplier<byte[]> createOnRoot) {
        if (nranks < 1 || rank < 0 || rank >= nranks) {
            throw new IllegalArgumentException("rank " + rank + " must be in [0, nranks=" + nranks + ")");
        }
        Objects.requireNonNull(createOnRoot, "createOnRoot");
        InetSocketAddress address = InetSocketAddress.createUnresolved(host, port);
        long timeoutMillis = Math.max(1, timeout.toMillis());
        if (rank != 0) {
            return new RendezvousClient(address, secret, timeoutMillis).fetch(rank);
        }
        byte[] id = Objects.requireNonNull(createOnRoot.get(), "createOnRoot returned null").clone();
        if (nranks > 1) {
            new RendezvousServer(new InetSocketAddress(host, port), secret, timeoutMillis).serve(id, nranks);
        }
        return id;
    }
}
