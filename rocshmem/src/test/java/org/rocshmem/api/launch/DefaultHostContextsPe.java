package org.rocshmem.api.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.rocshmem.api.Context;
import org.rocshmem.api.CType;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.InitOptions;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.RocshmemException;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.api.Team;

/**
 * The host reductions and contexts a program uses without any setting, for {@link DefaultHostContextsTest}: prints
 * one line per pattern with the values it produced (each PE contributes {@code me + 1}). With the argument
 * {@code options} it asks for 6 contexts of its own and prints how the 7th is refused.
 */
public final class DefaultHostContextsPe {
    private DefaultHostContextsPe() {
    }

    public static void main(String[] args) throws Exception {
        if (System.getenv("ROCSHMEM_MAX_NUM_HOST_CONTEXTS") != null) {
            throw new IllegalStateException("the harness set ROCSHMEM_MAX_NUM_HOST_CONTEXTS; this PE must run without");
        }
        if (args.length > 0 && args[0].equals("options")) {
            withOptions();
            return;
        }
        try (Rocshmem shmem = Rocshmem.init();
             SymmetricBuffer buffer = shmem.calloc(4 * 64, Long.BYTES)) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            SymmetricLongs all = buffer.asLongs();
            SymmetricLongs source = all.slice(0, 64);
            SymmetricLongs result = all.slice(64, 64);
            for (int i = 0; i < 64; i++) {
                source.set(i, me + 1);
            }
            shmem.barrierAll();
            // 1. all-reduce on WORLD, no context given: the session's context
            shmem.world().sumReduce(result.slice(0, 1), source.slice(0, 1));
            System.out.println("world sum " + result.get(0));
            // 2. split-2d: reductions over the row and the column
            try (Team.Split2d grid = shmem.world().split2d(2)) {
                grid.x().sumReduce(result.slice(0, 1), source.slice(0, 1));
                long row = result.get(0);
                grid.y().sumReduce(result.slice(1, 1), source.slice(0, 1));
                System.out.println("split2d row " + row + " column " + result.get(1));
            }
            // 3. reduce-scatter: block i of every PE's source goes to PE i
            shmem.world().sumReduceScatter(result.slice(0, 1), source.slice(0, n));
            System.out.println("reduce-scatter " + result.get(0));
            // 4. stream reduction on a sub-team of the even PEs
            try (Team evens = shmem.world().splitStrided(0, 2, (n + 1) / 2);
                 HipStream stream = HipStream.create()) {
                if (evens.isValid()) {
                    evens.sumReduce(stream, result.slice(0, 1), source.slice(0, 1));
                    stream.synchronize();
                    System.out.println("stream evens " + result.get(0));
                } else {
                    System.out.println("stream evens not a member");
                }
            }
            // 5. two threads, a context each, both alive at once
            List<CompletableFuture<Long>> threads = new ArrayList<>();
            java.util.concurrent.CyclicBarrier bothOpen = new java.util.concurrent.CyclicBarrier(2);
            for (int t = 0; t < 2; t++) {
                int slot = 128 + t;
                threads.add(CompletableFuture.supplyAsync(() -> {
                    try (Context ctx = shmem.createContext()) {
                        bothOpen.await();
                        all.withContext(ctx).p((me + 1) % n, slot, 1000 * (slot - 127) + me);
                        ctx.quiet();
                        bothOpen.await();
                        return 0L;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            for (CompletableFuture<Long> thread : threads) {
                thread.get();
            }
            shmem.barrierAll();
            int previous = (me + n - 1) % n;
            System.out.println("two-thread contexts " + all.get(128) + " " + all.get(129) + " from " + previous);
        }
    }

    private static void withOptions() {
        try (Rocshmem shmem = Rocshmem.init(InitOptions.hostContexts(6))) {
            List<Context> mine = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                mine.add(shmem.createContext());
            }
            System.out.println("contexts " + mine.size());
            try {
                shmem.createContext().close();
                System.out.println("seventh: no exception");
            } catch (RocshmemException e) {
                System.out.println("seventh: " + e.getMessage());
            }
            mine.forEach(Context::close);
            // A reduction on a C type rocSHMEM lacks: the argument error, not a pool error (the pool has room now,
            // so also fill it first).
            List<Context> full = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                full.add(shmem.createContext());
            }
            try (SymmetricBuffer buffer = shmem.calloc(2, Short.BYTES)) {
                shmem.world().maxReduce(buffer.asShorts(CType.USHORT).slice(0, 1),
                        buffer.asShorts(CType.USHORT).slice(1, 1));
                System.out.println("unsupported: no exception");
            } catch (RuntimeException e) {
                System.out.println("unsupported: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            full.forEach(Context::close);
        }
    }
}
