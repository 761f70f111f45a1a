package org.rocshmem.samples;

import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricInts;
import org.rocshmem.api.Team;

/**
 * Alltoall as a distributed matrix transpose: PE i holds row i of an n x n matrix of blocks; one stream-ordered
 * alltoall leaves column i on PE i, i.e. block j of PE i's result is block i of PE j's row.
 *
 * <pre>
 * ./samples/run.sh AlltoallTranspose 4 [ints per block]
 * </pre>
 */
public final class AlltoallTranspose {
    private AlltoallTranspose() {
    }

    public static void main(String[] args) {
        int block = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        boolean ok = true;
        try (Rocshmem shmem = Rocshmem.init();
             SymmetricBuffer rowBlock = shmem.malloc((long) block * shmem.nPes() * Integer.BYTES);
             SymmetricBuffer columnBlock = shmem.calloc((long) block * shmem.nPes(), Integer.BYTES);
             HipStream stream = HipStream.create()) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            Team world = shmem.world();
            SymmetricInts row = rowBlock.asInts();
            SymmetricInts column = columnBlock.asInts();
            int[] mine = new int[block * n];
            for (int j = 0; j < n; j++) {
                for (int k = 0; k < block; k++) {
                    mine[j * block + k] = element(me, j, k);
                }
            }
            row.copyFrom(mine);
            shmem.barrierAll();
            world.alltoallmem(stream, column, row);   // rocshmem_alltoallmem_on_stream
            stream.synchronize();
            int[] got = column.toArray();
            for (int j = 0; j < n && ok; j++) {
                for (int k = 0; k < block; k++) {
                    if (got[j * block + k] != element(j, me, k)) {
                        System.out.printf("PE %d: block %d element %d is %d, expected %d%n", me, j, k,
                                got[j * block + k], element(j, me, k));
                        ok = false;
                        break;
                    }
                }
            }
            System.out.printf("PE %d/%d: column %d of the %dx%d block matrix: %s%n", me, n, me, n, n,
                    ok ? "verified" : "WRONG");
            shmem.barrierAll();
        }
        if (!ok) {
            System.exit(1);
        }
    }

    /** Element k of block (row i, column j). */
    private static int element(int i, int j, int k) {
        return i * 1_000_000 + j * 1_000 + k;
    }
}
