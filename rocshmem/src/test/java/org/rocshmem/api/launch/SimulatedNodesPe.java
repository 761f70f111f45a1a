package org.rocshmem.api.launch;

import java.util.Arrays;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.api.Team;

/**
 * A PE of a job launched with {@code --nnodes}: prints, one {@code key=value} line each, what the typed API says
 * about its simulated node and what RMA, an atomic and reductions across nodes produced, for
 * {@link SimulatedNodesTest}.
 */
public final class SimulatedNodesPe {
    private SimulatedNodesPe() {
    }

    public static void main(String[] args) {
        try (Rocshmem shmem = Rocshmem.init();
             SymmetricBuffer buffer = shmem.calloc(6, Long.BYTES)) {
            int me = shmem.myPe();
            int nPes = shmem.nPes();
            Team shared = shmem.shared();
            SymmetricLongs slots = buffer.asLongs();
            System.out.println("shared=" + members(shared, shmem.world()) + " index=" + shared.myPe());
            System.out.println("direct=" + Arrays.stream(slots.peerAddresses())
                    .mapToObj(address -> address == 0 ? "0" : "1").collect(Collectors.joining(",")));

            SymmetricLongs worldPe = slots.slice(4, 1);
            SymmetricLongs nodeSum = slots.slice(5, 1);
            worldPe.set(0, me);
            try (Team split = shared.splitStrided(0, 1, shared.nPes())) {
                split.sumReduce(nodeSum, worldPe);
                System.out.println("split=" + members(split, shmem.world()) + " sum=" + nodeSum.get(0));
            }

            // slot 0: my partner on the next node puts 100 + its PE here; slot 1: every PE adds 1 << its PE on the
            // first and the last PE; slot 3: the world sum of (PE + 1) from slot 2
            int partner = (me + shared.nPes()) % nPes;
            slots.slice(0, 1).put(partner, new long[] {100 + me});
            slots.atomicAdd(0, 1, 1L << me);
            slots.atomicAdd(nPes - 1, 1, 1L << me);
            slots.set(2, me + 1);
            shmem.barrierAll();
            shmem.world().sumReduce(slots.slice(3, 1), slots.slice(2, 1));
            System.out.println("put=" + slots.get(0) + " counter=" + slots.get(1) + " sum=" + slots.get(3));
        }
    }

    private static String members(Team team, Team world) {
        return IntStream.range(0, team.nPes()).mapToObj(pe -> Integer.toString(team.translatePe(pe, world)))
                .collect(Collectors.joining(","));
    }
}
