package org.rocshmem.api.launch;

import org.rocshmem.api.Context;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.RocshmemException;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;

/**
 * Runs with ROCSHMEM_MAX_NUM_HOST_CONTEXTS=2 (the library's default context and one more): prints what each step
 * gave, for {@link HostContextLimitTest}.
 */
public final class HostContextsPe {
    private HostContextsPe() {
    }

    public static void main(String[] args) {
        try (Rocshmem shmem = Rocshmem.init();
             SymmetricBuffer buffer = shmem.calloc(2, Long.BYTES)) {
            SymmetricLongs source = buffer.asLongs().slice(0, 1);
            SymmetricLongs sum = buffer.asLongs().slice(1, 1);
            source.set(0, shmem.myPe() + 1);
            try (Context mine = shmem.createContext()) {
                report("second context", () -> shmem.createContext().close());
                report("collective without context", () -> shmem.world().sumReduce(sum, source));
                shmem.world().sumReduce(sum.withContext(mine), source);
                System.out.println("sum on my context " + sum.get(0));
            }
            shmem.world().sumReduce(sum, source); // the slot is free again: the session's context takes it
            System.out.println("sum on the session's context " + sum.get(0));
        }
    }

    private static void report(String step, Runnable call) {
        try {
            call.run();
            System.out.println(step + ": no exception");
        } catch (RocshmemException e) {
            System.out.println(step + ": " + e.getMessage());
        }
    }
}
