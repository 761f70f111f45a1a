package org.rocshmem.api.typed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.CType;
import org.rocshmem.api.Context;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricBytes;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.testsupport.InitializedPe;
import org.rocshmem.api.testing.MultiPe;

/**
 * Every RMA form (put, get, put_nbi, get_nbi with a view, a whole array or an array from an offset; p; g) for
 * every one of the 23 C types, through the default context and through a created one, around a ring of PEs. Each
 * PE's data is distinct ({@link #pattern}), so data from the wrong PE, offset or type is caught.
 */
@Tag("emu")
class TypedRmaTest {
    static final int N = 16;

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void everyFormForEveryTypeOnTwoPes() {
        everyFormForEveryType();
    }

    @Test
    @MultiPe(value = 4, lifecycle = InitializedPe.class, timeoutSeconds = 180)
    void everyFormForEveryTypeOnFourPes() {
        everyFormForEveryType();
    }

    /** Distinct for every (pe, salt) with up to 4 PEs, and exact in every element type (float included). */
    static long[] pattern(int pe, int salt) {
        long[] values = new long[N];
        for (int i = 0; i < N; i++) {
            values[i] = pe * 40L + salt * 3L + i;
        }
        return values;
    }

    private static void everyFormForEveryType() {
        Rocshmem shmem = Rocshmem.current();
        try (Context ctx = shmem.createContext()) {
            for (CType type : CType.values()) {
                new Ring(shmem, type, null).run();
                new Ring(shmem, type, ctx).run();
            }
        }
        untypedPutmemFamily(shmem);
    }

    /** One C type, one context: the ring steps of every form. */
    private record Ring(Rocshmem shmem, CType type, Context ctx) {
        void run() {
            int me = shmem.myPe();
            int n = shmem.nPes();
            int next = (me + 1) % n;
            int prev = (me + n - 1) % n;
            try (SymmetricBuffer a = shmem.calloc(N, Long.BYTES); SymmetricBuffer b = shmem.calloc(N, Long.BYTES)) {
                TypedView src = TypedView.of(a, type).slice(0, N).withContext(ctx);
                TypedView dst = TypedView.of(b, type).slice(0, N).withContext(ctx);
                String where = type + (ctx == null ? " (default context)" : " (" + ctx + ")");

                // put: view, whole array, array from an offset into a slice
                src.copyFrom(pattern(me, 1));
                dst.transfer("put", next, src);
                settle();
                assertArrayEquals(dst.normalize(pattern(prev, 1)), dst.read(), where + " put(pe, view)");
                settle();
                dst.transferArray("put", next, src.array(pattern(me, 2)));
                settle();
                long[] expected = dst.normalize(pattern(prev, 2));
                assertArrayEquals(expected, dst.read(), where + " put(pe, array)");
                settle();
                dst.slice(2, 8).transferArray("put", next, src.array(pattern(me, 3)), 3);
                settle();
                System.arraycopy(dst.normalize(pattern(prev, 3)), 3, expected, 2, 8);
                assertArrayEquals(expected, dst.read(), where + " put(pe, array, offset) into a slice");
                settle();

                // get: the neighbour's source into local memory
                src.copyFrom(pattern(me, 4));
                settle();
                src.transfer("get", next, dst);
                assertArrayEquals(dst.normalize(pattern(next, 4)), dst.read(), where + " get(pe, view)");
                assertArrayEquals(dst.normalize(pattern(next, 4)),
                        TypedView.longs(src.transferArray("get", next, src.newArray(N))), where + " get(pe, array)");
                Object window = src.newArray(N + 5);
                src.slice(4, 6).transferArray("get", next, window, 5);
                long[] got = TypedView.longs(window);
                assertArrayEquals(Arrays.copyOfRange(dst.normalize(pattern(next, 4)), 4, 10),
                        Arrays.copyOfRange(got, 5, 11), where + " get(pe, array, offset) of a slice");
                assertEquals(0, got[4] + got[11], where + " get(pe, array, offset) wrote outside its range");
                settle();

                // non-blocking forms, completed by quiet on the context
                src.copyFrom(pattern(me, 5));
                dst.transfer("putNbi", next, src);
                settle();
                assertArrayEquals(dst.normalize(pattern(prev, 5)), dst.read(), where + " putNbi(pe, view)");
                settle();
                // a non-blocking transfer takes views only (a Java array is not pinned until quiet): no array forms
                for (String nbi : new String[] {"putNbi", "getNbi"}) {
                    assertTrue(Arrays.stream(dst.view.getClass().getMethods()).noneMatch(m -> m.getName().equals(nbi)
                            && m.getParameterTypes()[1].isArray()), where + " " + nbi + " must not take an array");
                }
                src.transfer("getNbi", next, dst);
                quiet();
                long[] remote = dst.normalize(pattern(next, 5));
                assertArrayEquals(remote, dst.read(), where + " getNbi(pe, view)");
                settle();

                // single elements
                for (int i = 0; i < N; i += 5) {
                    dst.p(next, i, 1000 + me * 10 + i);
                }
                settle();
                long[] singles = dst.read();
                for (int i = 0; i < N; i += 5) {
                    assertEquals(dst.normalize(1000 + prev * 10 + i), singles[i], where + " p(pe, " + i + ")");
                }
                for (int i = 0; i < N; i += 3) {
                    assertEquals(src.normalize(pattern(next, 5)[i]), src.g(next, i), where + " g(pe, " + i + ")");
                }
                settle();
            }
        }

        /** Completes this PE's puts (on the context too), then every PE has arrived. */
        void settle() {
            quiet();
            shmem.barrierAll();
        }

        void quiet() {
            if (ctx != null) {
                ctx.quiet();
            }
            shmem.quiet();
        }
    }

    /** putmem/getmem (+ nbi, + ctx): byte copies of whole views, whatever their element type. */
    private static void untypedPutmemFamily(Rocshmem shmem) {
        int me = shmem.myPe();
        int n = shmem.nPes();
        int next = (me + 1) % n;
        int prev = (me + n - 1) % n;
        try (SymmetricBuffer a = shmem.calloc(N, Long.BYTES); SymmetricBuffer b = shmem.calloc(N, Long.BYTES);
             Context ctx = shmem.createContext()) {
            SymmetricLongs longs = a.asLongs();
            long[] mine = Arrays.stream(pattern(me, 1)).map(v -> v * 0x0101_0101_0101L).toArray();
            longs.copyFrom(mine);
            SymmetricBytes inbox = b.asBytes();
            inbox.putmem(next, longs);
            shmem.barrierAll();
            assertArrayEquals(Arrays.stream(pattern(prev, 1)).map(v -> v * 0x0101_0101_0101L).toArray(),
                    b.asLongs().toArray(), "putmem of a long view into a byte view");
            shmem.barrierAll();
            inbox.withContext(ctx).putmemNbi(next, longs.slice(0, N));
            ctx.quiet();
            shmem.barrierAll();
            longs.getmem(next, b.asDoubles());
            assertArrayEquals(Arrays.stream(pattern(next, 1)).map(v -> v * 0x0101_0101_0101L).toArray(),
                    b.asLongs().toArray(), "getmem into a double view moves the bits");
            longs.withContext(ctx).getmemNbi(next, b.asInts());
            ctx.quiet();
            assertArrayEquals(Arrays.stream(pattern(next, 1)).map(v -> v * 0x0101_0101_0101L).toArray(),
                    b.asLongs().toArray(), "getmemNbi through a context");
            shmem.barrierAll();
        }
    }
}
