package org.rocshmem.api.typed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.rocshmem.testsupport.Expect.fails;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.CType;
import org.rocshmem.api.Compare;
import org.rocshmem.api.Context;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.RocshmemStateException;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricDoubles;
import org.rocshmem.api.SymmetricInts;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.api.testing.MultiPe;

/**
 * Bad input for every family of the typed data plane gives a Java exception that names the problem, thrown
 * before any native call; afterwards the PEs still exchange correct data (nothing was corrupted).
 */
@Tag("emu")
class TypedBadInputTest {

    @Test
    @MultiPe(value = 2, timeoutSeconds = 90)
    void everyFamilyRefusesBadInputClearly() {
        Rocshmem shmem = Rocshmem.init();
        int me = shmem.myPe();
        int other = 1 - me;
        SymmetricBuffer buffer = shmem.calloc(8, Long.BYTES);
        SymmetricLongs longs = buffer.asLongs().slice(0, 4);
        SymmetricLongs three = buffer.asLongs().slice(4, 3);
        long[] four = new long[4];

        // RMA: PE, index, lengths, offsets
        fails(IndexOutOfBoundsException.class, "PE 2 is outside [0, n_pes=2)", () -> longs.put(2, four));
        fails(IndexOutOfBoundsException.class, "PE -1 is outside", () -> longs.p(-1, 0, 1));
        fails(IndexOutOfBoundsException.class, "index 4 is outside [0, 4)", () -> longs.p(other, 4, 1));
        fails(IndexOutOfBoundsException.class, "index -1 is outside", () -> longs.g(other, -1));
        fails(IllegalArgumentException.class, "the views differ in length", () -> longs.put(other, three));
        fails(IllegalArgumentException.class, "the views differ in length", () -> longs.getNbi(other, three));
        fails(IllegalArgumentException.class, "source array has 3 elements but", () -> longs.put(other, new long[3]));
        fails(IndexOutOfBoundsException.class, "4 elements from offset 2 do not fit an array of 5",
                () -> longs.get(other, new long[5], 2));
        fails(IndexOutOfBoundsException.class, "from offset -1", () -> longs.put(other, four, -1));
        fails(IllegalArgumentException.class, "the views differ in size", () -> longs.putmem(other, three));
        fails(IndexOutOfBoundsException.class, "slice of", () -> longs.slice(2, 3));
        fails(IllegalArgumentException.class, "destination array has 5 elements", () -> longs.copyTo(new long[5]));

        // C types: a view only stands for the C types of its Java element type
        fails(IllegalArgumentException.class, "is not held in a Java long", () -> buffer.asLongs(CType.INT));
        fails(IllegalArgumentException.class, "is not a long type", () -> longs.as(CType.DOUBLE));

        // atomics: index, PE, and pairs the library does not define
        fails(IndexOutOfBoundsException.class, "index 9 is outside", () -> longs.atomicFetchAdd(other, 9, 1));
        fails(IndexOutOfBoundsException.class, "PE 5 is outside", () -> longs.atomicInc(5, 0));
        // (bitwise atomics of long and the waits of int32_t are served by a C type of the same width: TypeRoutingTest)

        // waits: index, status, values and indices arrays
        fails(IndexOutOfBoundsException.class, "index 4 is outside", () -> longs.waitUntil(4, Compare.EQ, 0));
        fails(IndexOutOfBoundsException.class, "index -2 is outside", () -> longs.test(-2, Compare.EQ, 0));
        fails(IllegalArgumentException.class, "status has 3 elements", () -> longs.waitUntilAll(new int[3],
                Compare.EQ, 0));
        fails(IllegalArgumentException.class, "values has 5 elements", () -> longs.waitUntilAnyVector(null,
                Compare.EQ, new long[5]));
        fails(IllegalArgumentException.class, "indices holds 2 entries", () -> longs.waitUntilSome(new long[2],
                null, Compare.EQ, 0));

        // contexts: a closed one refuses every family
        Context ctx = shmem.createContext();
        SymmetricLongs viaCtx = longs.withContext(ctx);
        ctx.close();
        fails(RocshmemStateException.class, "context was closed", () -> viaCtx.put(other, four));
        fails(RocshmemStateException.class, "context was closed", () -> viaCtx.atomicFetch(other, 0));
        fails(RocshmemStateException.class, "context was closed", () -> viaCtx.putmemNbi(other, longs));
        fails(RocshmemStateException.class, "context was closed", () -> longs.withContext(ctx));

        // nothing above reached the library: the PEs still exchange correct data
        longs.put(other, new long[] {me, 1, 2, 3});
        shmem.barrierAll();
        assertArrayEquals(new long[] {other, 1, 2, 3}, longs.toArray());
        shmem.barrierAll();

        // a closed buffer: every view of it refuses, including new ones
        SymmetricDoubles doubles = buffer.asDoubles();
        buffer.close();
        fails(RocshmemStateException.class, "SymmetricBuffer was closed", () -> longs.p(other, 0, 1));
        fails(RocshmemStateException.class, "SymmetricBuffer was closed", () -> doubles.atomicSwap(other, 0, 1.5));
        fails(RocshmemStateException.class, "SymmetricBuffer was closed", () -> longs.waitUntil(0, Compare.EQ, 0));
        fails(RocshmemStateException.class, "SymmetricBuffer was closed", () -> longs.slice(0, 1));
        fails(RocshmemStateException.class, "SymmetricBuffer was closed", () -> longs.copyFrom(four));
        fails(RocshmemStateException.class, "was closed", buffer::asLongs);

        // after finalize, views of a still-open buffer refuse too
        SymmetricLongs afterwards = shmem.calloc(1, Long.BYTES).asLongs();
        shmem.close();
        fails(RocshmemStateException.class, "rocSHMEM was finalized", () -> afterwards.g(0, 0));
    }
}
