package org.rocshmem.api.launch;

import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;

/**
 * A rocSHMEM PE program that leaves the job early on PE 1 while PE 0 waits in barrier_all:
 * {@code throw}: a bad PE number inside try-with-resources (the API's IndexOutOfBoundsException propagates);
 * {@code exit}: System.exit(4) with the session open.
 */
public final class LeavingPe {
    private LeavingPe() {
    }

    public static void main(String[] args) throws Exception {
        try (Rocshmem shmem = Rocshmem.init();
             SymmetricBuffer buffer = shmem.calloc(4, Long.BYTES)) {
            SymmetricLongs longs = buffer.asLongs();
            shmem.barrierAll();
            if (shmem.myPe() == 1) {
                Thread.sleep(100); // PE 0 is in the barrier below by now
                if (args[0].equals("exit")) {
                    System.exit(4);
                }
                longs.put(5, new long[4]); // PE 5 of 2
            }
            shmem.barrierAll();
            System.out.println("PASSED the barrier PE 1 never reached");
        }
    }
}
