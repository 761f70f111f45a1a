package org.rocshmem.api.rccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.testing.MultiPe;

/** Every collective x data type x reduction operator through the typed API, each rank in its own JVM. */
@Tag("emu")
class CollectiveMatrixTest {

    @Test
    @MultiPe(value = 2, lifecycle = RcclPe.class, timeoutSeconds = 180)
    void everyCollectiveTypeAndOperatorOnTwoRanks() {
        check(2);
    }

    @Test
    @MultiPe(value = 4, lifecycle = RcclPe.class, timeoutSeconds = 240)
    void everyCollectiveTypeAndOperatorOnFourRanks() {
        check(4);
    }

    private static void check(int ranks) {
        Communicator comm = RcclPe.comm();
        assertEquals(ranks, comm.size());
        int checks = new CollectiveMatrix(comm, RcclPe.stream()).run();
        // 12 types x (4 reductions x 7 operators + the copying collectives): far more than a broken loop would do.
        assertTrue(checks > 12 * 7 * 4 * 4, "only " + checks + " values checked");
        assertEquals(RcclResult.SUCCESS, comm.asyncError());
    }
}
