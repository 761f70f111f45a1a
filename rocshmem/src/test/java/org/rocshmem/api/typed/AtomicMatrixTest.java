package org.rocshmem.api.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.CType;
import org.rocshmem.api.Context;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricInts;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.testsupport.InitializedPe;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.api.testing.Pe;

/**
 * The atomic matrix: every (type, op) pair the library defines on the host, through the default context and a
 * created one, with exact expected values; add/inc under contention from every PE (exact total, unique tickets);
 * a compare-and-swap election with exactly one winner; and the pairs the library lacks refusing clearly.
 */
@Tag("emu")
class AtomicMatrixTest {
    private static final int TICKETS_PER_PE = 2000;

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void matrixContentionAndElectionOnTwoPes() throws InterruptedException {
        everyPair();
        contention();
        election();
    }

    @Test
    @MultiPe(value = 4, lifecycle = InitializedPe.class, timeoutSeconds = 180)
    void matrixContentionAndElectionOnFourPes() throws InterruptedException {
        everyPair();
        contention();
        election();
    }

    /** Each PE works on its right neighbour's slots; after a barrier it checks what its left neighbour did. */
    private static void everyPair() {
        Rocshmem shmem = Rocshmem.current();
        int me = shmem.myPe();
        int n = shmem.nPes();
        int next = (me + 1) % n;
        int prev = (me + n - 1) % n;
        List<String> covered = new ArrayList<>();
        try (Context ctx = shmem.createContext()) {
            for (CType type : CType.values()) {
                if (!type.serves("atomic_fetch")) {
                    assertFalse(type.serves("atomic_set"), type + ": no atomics at all, or fetch too");
                    continue;
                }
                for (Context c : new Context[] {null, ctx}) {
                    try (SymmetricBuffer buffer = shmem.calloc(4, Long.BYTES)) {
                        TypedView slots = TypedView.of(buffer, type).slice(0, 4).withContext(c);
                        String where = type + (c == null ? " default context" : " " + c);
                        covered.addAll(pairs(shmem, slots, where, me, next, prev, c));
                    }
                }
            }
        }
        // 12 integer types x 14 ops + 2 floating types x 3 ops = 174 pairs, each in both context forms (the library
        // defines 144 of them; a type without bitwise atomics is served by one of its width)
        assertEquals(174 * 2, covered.size(), covered.toString());
    }

    private static List<String> pairs(Rocshmem shmem, TypedView slots, String where, int me, int next, int prev,
                                      Context ctx) {
        List<String> done = new ArrayList<>();
        CType type = slots.type;
        // fetch / set / swap: every atomic type has them
        slots.atomic("Set", next, 0, 10 + me);
        settle(shmem, ctx);
        assertEquals(slots.normalize(10 + prev), slots.read()[0], where + " atomicSet");
        assertEquals(slots.normalize(10 + me), slots.atomic("Fetch", next, 0), where + " atomicFetch");
        settle(shmem, ctx);
        assertEquals(slots.normalize(10 + me), slots.atomic("Swap", next, 0, -3 - me), where + " atomicSwap");
        settle(shmem, ctx);
        assertEquals(slots.normalize(-3 - prev), slots.read()[0], where + " atomicSwap stored the new value");
        done.addAll(List.of("fetch", "set", "swap"));
        settle(shmem, ctx);
        if (type.isFloatingPoint()) {
            assertFalse(slots.hasMethod("atomicAdd") || slots.hasMethod("atomicFetchAnd"),
                    where + ": arithmetic and bitwise atomics must not exist for floating types");
            return done;
        }
        // compare_swap: succeeds once, then fails and returns the current value
        long current = slots.normalize(-3 - me);
        assertEquals(current, slots.atomic("CompareSwap", next, 0, -3 - me, 77 + me), where + " cas success");
        assertEquals(slots.normalize(77 + me), slots.atomic("CompareSwap", next, 0, 12345, 5), where + " cas failure");
        settle(shmem, ctx);
        assertEquals(slots.normalize(77 + prev), slots.read()[0], where + " cas stored once");
        // inc / fetch_inc / add / fetch_add on slot 1 (starts at 0)
        slots.atomic("Inc", next, 1);
        assertEquals(1, slots.atomic("FetchInc", next, 1), where + " atomicFetchInc");
        slots.atomic("Add", next, 1, 5);
        assertEquals(7, slots.atomic("FetchAdd", next, 1, 3), where + " atomicFetchAdd");
        settle(shmem, ctx);
        assertEquals(10, slots.read()[1], where + " inc, fetch_inc, add, fetch_add");
        done.addAll(List.of("compare_swap", "inc", "fetch_inc", "add", "fetch_add"));
        settle(shmem, ctx);
        if (!type.serves("atomic_fetch_and")) {
            // no C type of this width has bitwise atomics: clear refusal, no call
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> slots.atomic("FetchAnd", next, 2, 1));
            assertTrue(e.getMessage().contains("rocshmem_" + (ctx == null ? "" : "ctx_") + type.rocshmemName()
                    + "_atomic_fetch_and") && e.getMessage().contains("it exists for: "), e.getMessage());
            return done;
        }
        // and / or / xor and their fetching forms on slot 2
        slots.atomic("Set", next, 2, 0xF0);
        assertEquals(0xF0, slots.atomic("FetchAnd", next, 2, 0xAA), where + " atomicFetchAnd");
        slots.atomic("And", next, 2, 0xF0);
        assertEquals(0xA0, slots.atomic("FetchOr", next, 2, 0x0F), where + " atomicFetchOr");
        slots.atomic("Or", next, 2, 0x100);
        assertEquals(0x1AF, slots.atomic("FetchXor", next, 2, 0xFF), where + " atomicFetchXor");
        slots.atomic("Xor", next, 2, 0x1);
        settle(shmem, ctx);
        assertEquals(0x151, slots.read()[2], where + " and, or, xor");
        // unsigned types really are unsigned: all ones stays all ones in the same bits
        slots.atomic("Set", next, 3, -1);
        assertEquals(-1, slots.atomic("FetchXor", next, 3, 0), where + " all-ones bits");
        done.addAll(List.of("and", "fetch_and", "or", "fetch_or", "xor", "fetch_xor"));
        settle(shmem, ctx);
        return done;
    }

    private static void settle(Rocshmem shmem, Context ctx) {
        if (ctx != null) {
            ctx.quiet();
        }
        shmem.barrierAll();
    }

    /** Every PE draws tickets from PE 0's counters: exact totals and no ticket twice (int64 and int32). */
    private static void contention() throws InterruptedException {
        Rocshmem shmem = Rocshmem.current();
        int n = shmem.nPes();
        try (SymmetricBuffer buffer = shmem.calloc(4, Long.BYTES)) {
            SymmetricLongs counters = buffer.asLongs(CType.INT64);
            SymmetricInts small = buffer.asInts(CType.INT32).slice(4, 2);
            StringBuilder tickets = new StringBuilder();
            for (int i = 0; i < TICKETS_PER_PE; i++) {
                tickets.append(counters.atomicFetchAdd(0, 0, 1)).append(',');
                counters.atomicInc(0, 1);
                small.atomicAdd(0, 0, 3);
                tickets.append(small.atomicFetchInc(0, 1)).append(';');
            }
            shmem.barrierAll();
            if (shmem.myPe() == 0) {
                assertEquals((long) n * TICKETS_PER_PE, counters.g(0, 0), "fetch_add total");
                assertEquals((long) n * TICKETS_PER_PE, counters.g(0, 1), "inc total");
                assertEquals(3 * n * TICKETS_PER_PE, small.g(0, 0), "int32 add total");
                assertEquals(n * TICKETS_PER_PE, small.g(0, 1), "int32 fetch_inc total");
            }
            Pe.publish("tickets", tickets.toString());
            TreeSet<Long> big = new TreeSet<>();
            TreeSet<Long> little = new TreeSet<>();
            for (String pe : Pe.collect("tickets", Duration.ofSeconds(60))) {
                for (String pair : pe.split(";")) {
                    String[] t = pair.split(",");
                    assertTrue(big.add(Long.parseLong(t[0])), "int64 ticket " + t[0] + " drawn twice");
                    assertTrue(little.add(Long.parseLong(t[1])), "int32 ticket " + t[1] + " drawn twice");
                }
            }
            assertEquals(n * TICKETS_PER_PE, big.size());
            assertEquals(0L, big.first());
            assertEquals(n * TICKETS_PER_PE - 1L, big.last());
            assertEquals(n * TICKETS_PER_PE - 1L, little.last());
            shmem.barrierAll();
        }
    }

    /** All PEs try to claim PE 0's slot with compare_swap at once: exactly one wins, everyone agrees who. */
    private static void election() throws InterruptedException {
        Rocshmem shmem = Rocshmem.current();
        int me = shmem.myPe();
        try (SymmetricBuffer buffer = shmem.calloc(1, Long.BYTES)) {
            SymmetricLongs slot = buffer.asLongs(CType.UINT64);
            if (me == 0) {
                slot.p(0, 0, -1L);
            }
            shmem.barrierAll();
            long previous = slot.atomicCompareSwap(0, 0, -1L, me);
            boolean won = previous == -1L;
            shmem.barrierAll();
            long winner = slot.g(0, 0);
            assertEquals(won, winner == me, "the winner is whoever saw the initial value");
            if (!won) {
                assertTrue(previous >= 0 && previous < shmem.nPes(), "a loser sees a PE number: " + previous);
            }
            Pe.publish("elected", won + "," + winner);
            List<String> votes = Pe.collect("elected", Duration.ofSeconds(60));
            assertEquals(1, votes.stream().filter(v -> v.startsWith("true")).count(), "exactly one winner: " + votes);
            assertEquals(1, votes.stream().map(v -> v.split(",")[1]).distinct().count(), "one agreed winner: " + votes);
            shmem.barrierAll();
        }
    }
}
