package org.rocshmem.samples;

import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricDoubles;
import org.rocshmem.api.SymmetricInts;
import org.rocshmem.api.Team;

/**
 * Team reductions: every PE contributes a vector; a sum and a max all-reduction leave the element-wise results on
 * every PE, and a split team of the even PEs reduces among themselves only (odd PEs get Team.INVALID, on which the
 * same call is a no-op, so the code needs no branch).
 *
 * <pre>
 * ./samples/run.sh Reduction 4 [elements]
 * </pre>
 */
public final class Reduction {
    private Reduction() {
    }

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        boolean ok = true;
        try (Rocshmem shmem = Rocshmem.init();
             SymmetricBuffer values = shmem.malloc((long) count * Double.BYTES);
             SymmetricBuffer sums = shmem.malloc((long) count * Double.BYTES);
             SymmetricBuffer ranks = shmem.malloc(Integer.BYTES);
             SymmetricBuffer maxima = shmem.calloc(1, Integer.BYTES)) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            double[] mine = new double[count];
            for (int i = 0; i < count; i++) {
                mine[i] = me + i * 0.5;
            }
            SymmetricDoubles in = values.asDoubles();
            SymmetricDoubles out = sums.asDoubles();
            in.copyFrom(mine);
            shmem.world().sumReduce(out, in);                  // rocshmem_ctx_double_sum_reduce
            double[] got = out.toArray();
            for (int i = 0; i < count && ok; i++) {
                double expected = n * (n - 1) / 2.0 + n * i * 0.5;
                if (got[i] != expected) {
                    System.out.printf("PE %d: sum[%d] = %f, expected %f%n", me, i, got[i], expected);
                    ok = false;
                }
            }

            SymmetricInts rank = ranks.asInts();
            rank.copyFrom(new int[] {me});
            try (Team even = shmem.world().splitStrided(0, 2, (n + 1) / 2)) {
                even.maxReduce(maxima.asInts(), rank);         // a no-op on odd PEs (Team.INVALID)
            }
            int max = maxima.asInts().toArray()[0];
            int expectedMax = me % 2 == 0 ? (n - 1) / 2 * 2 : 0;
            ok &= max == expectedMax;
            System.out.printf("PE %d/%d: sum of %d doubles and max over %s: %s%n", me, n, count,
                    me % 2 == 0 ? "the even PEs = " + max : "(not a member) untouched", ok ? "verified" : "WRONG");
            shmem.barrierAll();
        }
        if (!ok) {
            System.exit(1);
        }
    }
}
