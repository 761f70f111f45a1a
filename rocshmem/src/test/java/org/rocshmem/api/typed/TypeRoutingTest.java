package org.rocshmem.api.typed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rocshmem.testsupport.Expect.fails;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.CType;
import org.rocshmem.api.Compare;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricInts;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.api.SymmetricShorts;
import org.rocshmem.api.testing.MultiPe;

/**
 * Issue 17 item 5: an operation rocSHMEM defines for some C type of a view's width (and, for comparisons and min/max,
 * its signedness) works on the view, served by that type's function; the values prove the right bits moved. Also the
 * typed local {@code get(index)}/{@code set(index, value)} (item 6).
 */
@Tag("emu")
class TypeRoutingTest {

    @Test
    @MultiPe(value = 2, timeoutSeconds = 90)
    void operationsOfTheSameWidthServeEveryType() {
        try (Rocshmem shmem = Rocshmem.init();
             SymmetricBuffer buffer = shmem.calloc(32, Long.BYTES)) {
            int me = shmem.myPe();
            int other = 1 - me;

            // The README quick start: INT64 has atomics but no waits of its own; rocshmem_long_wait_until serves it.
            SymmetricLongs counters = buffer.asLongs(CType.INT64).slice(0, 4);
            counters.atomicAdd(other, 0, 40 + other);
            counters.waitUntil(0, Compare.EQ, 40 + me);
            assertTrue(counters.test(0, Compare.GE, 40), "test on int64_t");
            assertEquals(40 + me, counters.get(0), "get(index) reads this PE's copy");
            shmem.barrierAll();

            // long has no bitwise atomics of its own; rocshmem_int64_atomic_* serve it
            SymmetricLongs longs = buffer.asLongs(CType.LONG).slice(4, 4);
            longs.set(1, 0xF0);
            shmem.barrierAll();
            assertEquals(0xF0, longs.atomicFetchAnd(other, 1, 0x3C), "long atomicFetchAnd");
            longs.atomicOr(other, 1, 0x100L << 32);
            assertEquals(0x30 | (0x100L << 32), longs.atomicFetchXor(other, 1, -1L), "long atomicFetchXor, 64 bits");
            shmem.barrierAll();
            assertEquals(~(0x30 | (0x100L << 32)), longs.get(1), "the xor of all 64 bits arrived");

            // size_t (unsigned) has no bitwise atomics and no waits: unsigned long's serve it, unsigned compare
            SymmetricLongs sizes = buffer.asLongs(CType.SIZE).slice(8, 2);
            sizes.set(0, -1L);
            shmem.barrierAll();
            sizes.atomicAnd(other, 0, 0x8000_0000_0000_00FFL);
            shmem.barrierAll();
            sizes.waitUntil(0, Compare.GT, 0x7FFF_FFFF_FFFF_FFFFL); // only true as unsigned
            assertEquals(0x8000_0000_0000_00FFL, sizes.get(0));

            // int32_t has neither waits nor reductions, int no bitwise atomics: int's and int32_t's serve them
            SymmetricInts int32 = buffer.asInts(CType.INT32).slice(24, 4);
            SymmetricInts sum = buffer.asInts(CType.INT32).slice(28, 4);
            int32.set(2, -5 - me);
            shmem.barrierAll();
            shmem.world().minReduce(sum, int32);
            assertEquals(-6, sum.get(2), "int32_t minReduce compares signed");
            shmem.world().sumReduce(sum, int32);
            assertEquals(-11, sum.get(2), "int32_t sumReduce");
            SymmetricInts ints = buffer.asInts(CType.INT).slice(24, 4);
            ints.atomicXor(other, 3, 0x55);
            int32.waitUntil(3, Compare.EQ, 0x55);
            shmem.barrierAll();

            // unsigned min/max need an unsigned reduction, which rocSHMEM lacks: a clear refusal, not a wrong answer
            SymmetricShorts ushorts = buffer.asShorts(CType.USHORT).slice(64, 4);
            fails(UnsupportedOperationException.class, "no host maxReduce for C type unsigned short",
                    () -> shmem.world().maxReduce(ushorts, ushorts.slice(0, 4)));
            assertTrue(CType.USHORT.serves("sum_reduce") && !CType.USHORT.serves("max_reduce")
                    && !CType.USHORT.supports("sum_reduce"), "serves vs supports");
            shmem.barrierAll();
        }
    }
}
