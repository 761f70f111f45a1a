package org.rocshmem.api.rccl;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import org.rocshmem.api.bootstrap.UniqueIdExchange;

/**
 * Sends an RCCL unique id through a rocSHMEM {@link UniqueIdExchange}, prefixed with a tag. A job that
 * initializes rocSHMEM and then RCCL runs two rendezvous on the same MASTER_PORT one after the other; a fast rank
 * can reach rank 0 while it still serves the rocSHMEM id to a slow one. The tag makes such a foreign id
 * recognizable, and the rank simply asks again until rank 0 serves the RCCL id.
 */
final class TaggedIdExchange {
    static final byte[] TAG = "RCCL-UID".getBytes(StandardCharsets.US_ASCII);
    private static final System.Logger LOG = System.getLogger(TaggedIdExchange.class.getName());
    private static final long RETRY_PAUSE_MILLIS = 50;

    private TaggedIdExchange() {
    }

    static UniqueId exchange(UniqueIdExchange exchange, int rank, int nranks, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            byte[] received = exchange.exchange(rank, nranks, () -> tagged(Rccl.createUniqueId()));
            if (isTagged(received)) {
                return UniqueId.of(Arrays.copyOfRange(received, TAG.length, received.length));
            }
            if (System.nanoTime() > deadline) {
                throw new RcclException("rank " + rank + " received " + received.length + " bytes that are not an"
                        + " RCCL unique id from rank 0 until the bootstrap timeout (" + timeout + ")", null);
            }
            LOG.log(System.Logger.Level.DEBUG, "rank {0}: rank 0 still served another id ({1} bytes); asking again",
                    rank, received.length);
            try {
                Thread.sleep(RETRY_PAUSE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RcclException("interrupted while waiting for the RCCL unique id", e);
            }
        }
    }

    static byte[] tagged(UniqueId id) {
        byte[] bytes = id.bytes();
        byte[] out = Arrays.copyOf(TAG, TAG.length + bytes.length);
        System.arraycopy(bytes, 0, out, TAG.length, bytes.length);
        return out;
    }

    static boolean isTagged(byte[] received) {
        return received.length == TAG.length + UniqueId.BYTES
                && Arrays.equals(received, 0, TAG.length, TAG, 0, TAG.length);
    }
}
