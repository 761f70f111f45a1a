package org.rocshmem.samples;

import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;

/**
 * Ring exchange: every PE stamps a block with its rank, puts it into the next PE's symmetric buffer, waits at a
 * barrier and checks that the block it received is the previous PE's stamp. Exits with status 1 on a mismatch.
 *
 * <pre>
 * ./samples/run.sh RingExchange 2 [bytes]
 * </pre>
 */
public final class RingExchange {
    private RingExchange() {
    }

    public static void main(String[] args) {
        int bytes = args.length > 0 ? Integer.parseInt(args[0]) : 4096;
        if (bytes <= 0 || bytes % Integer.BYTES != 0) {
            throw new IllegalArgumentException("block size must be a positive multiple of 4, got " + bytes);
        }
        boolean ok;
        try (Rocshmem shmem = Rocshmem.init();
             SymmetricBuffer outgoing = shmem.malloc(bytes);
             SymmetricBuffer incoming = shmem.calloc(bytes, 1)) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            int next = (me + 1) % n;
            int previous = (me - 1 + n) % n;

            outgoing.asInts().copyFrom(stamp(me, bytes / Integer.BYTES));
            incoming.asInts().put(next, outgoing.asInts());
            shmem.barrierAll();

            int[] received = incoming.asInts().toArray();
            int firstBad = firstMismatch(received, stamp(previous, received.length));
            ok = firstBad < 0;
            if (ok) {
                System.out.printf("PE %d/%d: received block from PE %d — verified %d bytes%n",
                        me, n, previous, bytes);
            } else {
                System.out.printf("PE %d/%d: block from PE %d is WRONG at int %d: expected %d, got %d%n", me, n,
                        previous, firstBad, stamp(previous, received.length)[firstBad], received[firstBad]);
            }
        }
        if (!ok) {
            System.exit(1);
        }
    }

    /** Rank in the high half, index in the low half: a block from the wrong PE or a shifted copy both fail. */
    static int[] stamp(int rank, int length) {
        int[] block = new int[length];
        for (int i = 0; i < length; i++) {
            block[i] = (rank << 20) | i;
        }
        return block;
    }

    private static int firstMismatch(int[] actual, int[] expected) {
        for (int i = 0; i < expected.length; i++) {
            if (actual[i] != expected[i]) {
                return i;
            }
        }
        return -1;
    }
}
