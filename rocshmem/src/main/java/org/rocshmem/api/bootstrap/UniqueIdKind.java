package org.rocshmem.api.bootstrap;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Which library a unique id belongs to, so that rocSHMEM and RCCL can share one rendezvous in either order.
 *
 * <p>A job that initializes both runs two exchanges on the same MASTER_PORT one after the other. A fast rank can
 * reach rank 0 while it still serves the first library's id to a slow rank. Each id therefore travels with its
 * kind's tag; a rank that receives another kind's id asks again (after a short pause) until rank 0 serves the right
 * one, or the timeout passes.
 */
public enum UniqueIdKind {
    ROCSHMEM("SHMEMUID"),
    RCCL("RCCL-UID");

    private static final System.Logger LOG = System.getLogger(UniqueIdKind.class.getName());
    private static final long RETRY_PAUSE_MILLIS = 50;

    private final byte[] tag;

    UniqueIdKind(String tag) {
        this.tag = tag.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Exchanges an id of this kind through {@code exchange} and returns it without its tag. Collective, like
     * {@link UniqueIdExchange#exchange}; rank 0 calls {@code createOnRoot}.
     *
     * @param timeout how long a rank keeps asking while rank 0 serves ids of another kind
     * @throws BootstrapException if the exchange fails, or only ids of another kind arrive until the timeout
     */
    public byte[] exchange(UniqueIdExchange exchange, int rank, int nranks, Duration timeout,
                           Supplier<byte[]> createOnRoot) {
        Objects.requireNonNull(exchange, "exchange");
        Objects.requireNonNull(createOnRoot, "createOnRoot");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            byte[] received = exchange.exchange(rank, nranks, () -> tagged(createOnRoot.get()));
            if (isTagged(received)) {
                return Arrays.copyOfRange(received, tag.length, received.length);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new BootstrapException("rank " + rank + " received " + received.length + " bytes that are not a "
                        + this + " unique id from rank 0 until the bootstrap timeout (" + timeout.toMillis()
                        + " ms); does every rank initialize the same libraries?");
            }
            LOG.log(System.Logger.Level.DEBUG, "rank {0}: rank 0 still served another id ({1} bytes); asking again "
                    + "for the {2} id", rank, received.length, this);
            try {
                Thread.sleep(RETRY_PAUSE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BootstrapException("interrupted while waiting for the " + this + " unique id", e);
            }
        }
    }

    byte[] tagged(byte[] id) {
        Objects.requireNonNull(id, "createOnRoot returned null");
        byte[] out = Arrays.copyOf(tag, tag.length + id.length);
        System.arraycopy(id, 0, out, tag.length, id.length);
        return out;
    }

    boolean isTagged(byte[] received) {
        return received.length > tag.length && Arrays.equals(received, 0, tag.length, tag, 0, tag.length);
    }
}
