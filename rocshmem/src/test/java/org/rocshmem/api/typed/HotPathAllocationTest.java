package org.rocshmem.api.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.CType;
import org.rocshmem.api.Compare;
import org.rocshmem.api.Context;
import org.rocshmem.api.PeerLongs;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricDoubles;
import org.rocshmem.api.SymmetricInts;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.testsupport.InitializedPe;
import org.rocshmem.api.testing.MultiPe;

/**
 * The typed hot paths allocate nothing per call once warm: no Pointer objects, no boxing, no message strings
 * built in advance. Measured with the JVM's per-thread allocation counter over many calls to the other PE;
 * only allocation is asserted, never time.
 */
@Tag("emu")
class HotPathAllocationTest {
    private static final int WARMUP = 50_000;
    private static final int CALLS = 200_000;

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 180)
    void typedHotPathsAllocateNothingPerCall() {
        Rocshmem shmem = Rocshmem.current();
        int other = 1 - shmem.myPe();
        try (SymmetricBuffer buffer = shmem.calloc(64, Long.BYTES); Context ctx = shmem.createContext()) {
            SymmetricLongs longs = buffer.asLongs(CType.INT64).slice(0, 8);
            SymmetricLongs source = buffer.asLongs(CType.INT64).slice(8, 8);
            SymmetricLongs viaCtx = longs.withContext(ctx);
            SymmetricInts ints = buffer.asInts(CType.UINT).slice(32, 8);
            SymmetricDoubles doubles = buffer.asDoubles().slice(24, 4);
            SymmetricLongs flags = buffer.asLongs().slice(40, 4);
            SymmetricLongs half = longs.slice(0, 4); // deriving a view allocates: once, outside the loop
            long[] array = new long[8];
            Map<String, Runnable> hotPaths = new LinkedHashMap<>();
            hotPaths.put("p", () -> longs.p(other, 3, 7));
            hotPaths.put("g", () -> longs.g(other, 3));
            hotPaths.put("put(view)", () -> longs.put(other, source));
            hotPaths.put("get(view)", () -> longs.get(other, source));
            hotPaths.put("putNbi(view)", () -> longs.putNbi(other, source));
            hotPaths.put("put(array)", () -> longs.put(other, array));
            hotPaths.put("get(array, offset)", () -> half.get(other, array, 4));
            hotPaths.put("putmem", () -> longs.putmem(other, source));
            hotPaths.put("atomicFetchAdd int64", () -> longs.atomicFetchAdd(other, 0, 1));
            hotPaths.put("atomicInc uint", () -> ints.atomicInc(other, 0));
            hotPaths.put("atomicCompareSwap int64", () -> longs.atomicCompareSwap(other, 1, 0, 0));
            hotPaths.put("atomicFetchXor uint", () -> ints.atomicFetchXor(other, 1, 1));
            hotPaths.put("atomicSwap double", () -> doubles.atomicSwap(other, 0, 1.5));
            hotPaths.put("ctx p", () -> viaCtx.p(other, 2, 1));
            hotPaths.put("ctx atomicFetchAdd", () -> viaCtx.atomicFetchAdd(other, 0, 1));
            hotPaths.put("test", () -> flags.test(0, Compare.GE, 0));
            hotPaths.put("waitUntil (satisfied)", () -> flags.waitUntil(1, Compare.EQ, 0));
            // served by a C type of the same width (issue 17 item 5), local element access and timed waits
            SymmetricLongs plain = buffer.asLongs(CType.LONG).slice(48, 4);
            SymmetricLongs int64Flags = buffer.asLongs(CType.INT64).slice(44, 4);
            java.time.Duration second = java.time.Duration.ofSeconds(1);
            hotPaths.put("atomicFetchAnd long", () -> plain.atomicFetchAnd(other, 0, -1L));
            hotPaths.put("waitUntil int64 (long's)", () -> int64Flags.waitUntil(1, Compare.EQ, 0));
            hotPaths.put("waitUntil(timeout) sat.", () -> int64Flags.waitUntil(1, Compare.EQ, 0, second));
            hotPaths.put("get(index)", () -> plain.get(1));
            hotPaths.put("set(index)", () -> plain.set(2, 5));
            PeerLongs peer = plain.peer(other).orElseThrow();
            hotPaths.put("peer get(index)", () -> peer.get(1));
            hotPaths.put("peer set(index)", () -> peer.set(3, 5));
            hotPaths.put("quiet", shmem::quiet);
            hotPaths.put("ctx quiet", ctx::quiet);

            List<String> allocating = new ArrayList<>();
            for (Map.Entry<String, Runnable> e : hotPaths.entrySet()) {
                long bytes = allocatedBytes(e.getValue());
                System.out.printf("hot path %-24s %8d bytes over %d calls (least of 3 rounds)%n", e.getKey(), bytes, CALLS);
                if (bytes > 256) { // one stray JIT/safepoint artefact is tolerated; one byte per call is not
                    allocating.add(e.getKey() + ": " + bytes + " bytes over " + CALLS + " calls");
                }
            }
            shmem.barrierAll();
            assertEquals(List.of(), allocating, "hot paths that allocate");
        }
    }

    private static long allocatedBytes(Runnable call) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < WARMUP; i++) {
            call.run();
        }
        // The least of three rounds: a one-off event (a JIT transition, a first-time class init on this thread) can
        // allocate once; allocation per call shows in every round.
        long thread = Thread.currentThread().getId();
        long least = Long.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            long before = threads.getThreadAllocatedBytes(thread);
            for (int i = 0; i < CALLS; i++) {
                call.run();
            }
            least = Math.min(least, threads.getThreadAllocatedBytes(thread) - before);
        }
        return least;
    }
}
