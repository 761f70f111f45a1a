package org.rocshmem.samples;

import java.util.Arrays;
import org.rocshmem.api.CType;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;

/**
 * Atomic ticket counter: every PE draws tickets from one counter on PE 0 with a remote fetch-and-add, then all
 * tickets are gathered on PE 0, which checks that each number from 0 to n*k-1 was handed out exactly once.
 *
 * <pre>
 * ./samples/run.sh AtomicTicketCounter 4 [tickets per PE]
 * </pre>
 */
public final class AtomicTicketCounter {
    private AtomicTicketCounter() {
    }

    public static void main(String[] args) {
        int perPe = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        boolean ok = true;
        try (Rocshmem shmem = Rocshmem.init();
             SymmetricBuffer counterBlock = shmem.calloc(1, Long.BYTES);
             SymmetricBuffer ticketBlock = shmem.calloc((long) perPe * shmem.nPes(), Long.BYTES)) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            SymmetricLongs counter = counterBlock.asLongs(CType.INT64);
            long[] mine = new long[perPe];
            for (int i = 0; i < perPe; i++) {
                mine[i] = counter.atomicFetchAdd(0, 0, 1);     // a ticket from PE 0's counter
            }
            // every PE's tickets go to its own slice of PE 0's ticket table
            ticketBlock.asLongs().slice((long) me * perPe, perPe).put(0, mine);
            shmem.barrierAll();
            if (me == 0) {
                long[] all = ticketBlock.asLongs().toArray();
                Arrays.sort(all);
                for (int i = 0; i < all.length; i++) {
                    if (all[i] != i) {
                        System.out.printf("ticket %d is missing or drawn twice (position %d holds %d)%n", i, i, all[i]);
                        ok = false;
                        break;
                    }
                }
                long total = counter.g(0, 0);
                ok &= total == (long) n * perPe;
                System.out.printf("PE 0: %d PEs drew %d unique tickets, counter = %d: %s%n", n, all.length, total,
                        ok ? "verified" : "WRONG");
            }
            shmem.barrierAll();
        }
        if (!ok) {
            System.exit(1);
        }
    }
}
