package org.rocshmem.api.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.HexFormat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.Bootstrap;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.api.testing.Pe;

/**
 * Issue 25 item 6, rocshmem4py's subgroup pattern: 4 launched JVMs (WORLD_SIZE=4, LOCAL_WORLD_SIZE=4), of which
 * ranks 0 and 2 form a rocSHMEM world of 2 PEs with a unique id. The launcher's variables describe its job, not
 * the rocSHMEM world, so the init succeeds, both PEs share one node, and a put and a reduction between them give
 * exact values; ranks 1 and 3 never init rocSHMEM.
 */
@Tag("emu")
class SubsetInitMultiJvmTest {

    @Test
    @MultiPe(value = 4, timeoutSeconds = 90)
    void twoOfFourLaunchedPesInitWithAUniqueId() throws Exception {
        int rank = Pe.rank();
        Pe.publish("uid", rank == 0 ? HexFormat.of().formatHex(Rocshmem.createUniqueId()) : "-");
        byte[] uid = HexFormat.of().parseHex(Pe.collect("uid", Duration.ofSeconds(30)).get(0));
        if (rank % 2 == 1) {
            return;  // outside the subgroup
        }
        int groupRank = rank / 2;
        try (Rocshmem shmem = Rocshmem.init(Bootstrap.uniqueId(groupRank, 2, uid));
             SymmetricBuffer buffer = shmem.calloc(3, Long.BYTES)) {
            assertEquals(groupRank, shmem.myPe());
            assertEquals(2, shmem.nPes());
            assertEquals(2, shmem.shared().nPes(), "both PEs of the subgroup are on one node");
            SymmetricLongs slots = buffer.asLongs();
            slots.slice(0, 1).put(1 - groupRank, new long[] {100 + groupRank});
            slots.set(1, groupRank + 1);
            shmem.barrierAll();
            assertEquals(100 + (1 - groupRank), slots.get(0), "put from the other PE of the subgroup");
            shmem.world().sumReduce(slots.slice(2, 1), slots.slice(1, 1));
            assertEquals(3, slots.get(2), "sum over the subgroup");
        }
    }
}
