package org.rocshmem.api.typed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.CType;
import org.rocshmem.api.Compare;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.testsupport.InitializedPe;
import org.rocshmem.api.testing.MultiPe;

/**
 * wait_until, its _all/_any/_some and _vector forms, and test, for every C type the library defines them for:
 * each comparison, signed versus unsigned, status masks, and the indices _any and _some return. The flags a PE
 * waits on are written by its left neighbour, so every wait depends on data that moved between PEs.
 */
@Tag("emu")
class PointToPointSyncTest {

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void everyWaitAndTestOnTwoPes() {
        everyType();
    }

    @Test
    @MultiPe(value = 4, lifecycle = InitializedPe.class, timeoutSeconds = 180)
    void everyWaitAndTestOnFourPes() {
        everyType();
    }

    /** (value the flag is reset to, reference of the comparison, value the neighbour writes). */
    private record Step(Compare cmp, long reset, long reference, long write) {
    }

    private static final Step[] STEPS = {
        new Step(Compare.EQ, 0, 7, 7), new Step(Compare.NE, 0, 0, 9), new Step(Compare.GT, 0, 5, 6),
        new Step(Compare.GE, 0, 5, 5), new Step(Compare.LT, 9, 5, 3), new Step(Compare.LE, 9, 5, 5),
    };

    private static void everyType() {
        Rocshmem shmem = Rocshmem.current();
        int waited = 0;
        for (CType type : CType.values()) {
            if (type.serves("wait_until")) {
                try (SymmetricBuffer buffer = shmem.calloc(4, Long.BYTES)) {
                    new Flags(shmem, TypedView.of(buffer, type).slice(0, 4)).run();
                    waited++;
                }
            }
        }
        // the library defines waits for 14 C types; the other 9 are served by a type of their width and signedness
        assertEquals(23, waited, "every C type has waits");
        convenienceForms(shmem);
    }

    private record Flags(Rocshmem shmem, TypedView flags) {
        void run() {
            int me = shmem.myPe();
            int n = shmem.nPes();
            int next = (me + 1) % n;
            String where = flags.type.toString();

            // test: a truth table on local values, and unsigned comparison for unsigned types
            flags.copyFrom(new long[] {5, -1, 5, 5});
            for (Compare cmp : Compare.values()) {
                for (long v = 4; v <= 6; v++) {
                    boolean expected = switch (cmp) {
                        case EQ -> 5 == v;
                        case NE -> 5 != v;
                        case GT -> 5 > v;
                        case GE -> 5 >= v;
                        case LT -> 5 < v;
                        case LE -> 5 <= v;
                    };
                    assertEquals(expected, flags.test(0, cmp, v), where + ": 5 " + cmp + " " + v);
                }
            }
            boolean unsigned = flags.type.isUnsigned();
            assertEquals(unsigned, flags.test(1, Compare.GT, 1), where + ": all-ones GT 1 is true only unsigned");
            assertEquals(!unsigned, flags.test(1, Compare.LT, 1), where + ": all-ones LT 1 is true only signed");
            shmem.barrierAll();

            // wait_until for each comparison; the left neighbour writes the value that satisfies it
            for (Step step : STEPS) {
                flags.p(me, 0, step.reset());
                shmem.barrierAll();
                flags.p(next, 0, step.write());
                flags.waitUntil(0, step.cmp(), step.reference());
                assertEquals(flags.normalize(step.write()), flags.read()[0], where + " waitUntil " + step);
                shmem.barrierAll();
            }

            // wait_until_all with one element excluded by the status array (it never changes)
            flags.copyFrom(new long[] {0, 0, 0, 0});
            shmem.barrierAll();
            for (int i = 0; i < 3; i++) {
                flags.p(next, i, 1);
            }
            flags.waitUntilAll(new int[] {0, 0, 0, 1}, Compare.EQ, 1);
            assertArrayEquals(new long[] {1, 1, 1, 0}, flags.read(), where + " waitUntilAll with a status mask");
            shmem.barrierAll();

            // wait_until_any: the index of the element that changed; -1 when every element is excluded
            flags.copyFrom(new long[] {0, 0, 0, 0});
            shmem.barrierAll();
            flags.p(next, 2, 3);
            assertEquals(2, flags.waitUntilAny(null, Compare.EQ, 3), where + " waitUntilAny");
            assertEquals(-1, flags.waitUntilAny(new int[] {1, 1, 1, 1}, Compare.EQ, 3), where + " any, all excluded");
            shmem.barrierAll();

            // wait_until_some: every satisfied index, minus the excluded ones
            flags.copyFrom(new long[] {0, 0, 0, 0});
            shmem.barrierAll();
            flags.p(next, 1, 8);
            flags.p(next, 3, 8);
            shmem.quiet();
            shmem.barrierAll();
            assertArrayEquals(new long[] {1, 3}, flags.waitUntilSome(null, Compare.EQ, 8), where + " waitUntilSome");
            assertArrayEquals(new long[] {1}, flags.waitUntilSome(new int[] {0, 0, 0, 1}, Compare.GE, 8),
                    where + " waitUntilSome with a status mask");
            shmem.barrierAll();

            // the _vector forms: one reference value per element
            flags.copyFrom(new long[] {0, 0, 0, 0});
            shmem.barrierAll();
            for (int i = 0; i < 4; i++) {
                flags.p(next, i, 10 + i);
            }
            flags.waitUntilAllVector(null, Compare.EQ, new long[] {10, 11, 12, 13});
            assertEquals(3, flags.waitUntilAnyVector(new int[] {1, 1, 1, 0}, Compare.GE, new long[] {0, 0, 0, 13}),
                    where + " waitUntilAnyVector");
            assertArrayEquals(new long[] {0, 2}, flags.waitUntilSomeVector(null, Compare.EQ,
                    new long[] {10, 99, 12, 99}), where + " waitUntilSomeVector");
            assertArrayEquals(new long[] {1}, flags.waitUntilSomeVector(new int[] {1, 0, 1, 1}, Compare.LT,
                    new long[] {50, 50, 50, 50}), where + " waitUntilSomeVector with a status mask");
            shmem.barrierAll();
        }
    }

    /** The status-free overloads, called directly (not through the test adapter). */
    private static void convenienceForms(Rocshmem shmem) {
        int me = shmem.myPe();
        int next = (me + 1) % shmem.nPes();
        try (SymmetricBuffer buffer = shmem.calloc(3, Long.BYTES)) {
            SymmetricLongs flags = buffer.asLongs();
            flags.p(next, 0, 4);
            shmem.fence(); // element 0 arrives before element 2
            flags.p(next, 2, 4);
            flags.waitUntilAll(Compare.GE, 0);
            flags.waitUntil(2, Compare.EQ, 4);
            long any = flags.waitUntilAny(Compare.EQ, 4);
            assertEquals(true, any == 0 || any == 2, "waitUntilAny may return either satisfied index: " + any);
            shmem.quiet();
            shmem.barrierAll();
            assertArrayEquals(new long[] {0, 2}, flags.waitUntilSome(Compare.EQ, 4));
            shmem.barrierAll();
        }
    }
}
