package org.rocshmem.rocshmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.rocshmem.global.rocshmem.*;

import org.bytedeco.javacpp.BytePointer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.api.testing.Pe;

/**
 * The generated bindings alone, no org.rocshmem.api: two JVMs on the CPU emulator initialise
 * from the launcher's environment, exchange bytes through the symmetric heap and finalize.
 */
@Tag("emu")
class RawBindingsRoundTripTest {
    private static final int BYTES = 4096;

    @Test
    // The raw bindings get no provisioning from the typed API: like a C program, this one sets the pool for its
    // second host context (the library's default context takes the first).
    @MultiPe(value = 2, env = "ROCSHMEM_MAX_NUM_HOST_CONTEXTS=2")
    void initPutGetBarrierFreeFinalize() {
        rocshmem_init();
        int me = rocshmem_my_pe();
        int n = rocshmem_n_pes();
        assertEquals(Pe.rank(), me);
        assertEquals(2, n);
        int next = (me + 1) % n;
        int prev = (me + n - 1) % n;

        BytePointer inbox = new BytePointer(rocshmem_malloc(BYTES)).capacity(BYTES);
        BytePointer outbox = new BytePointer(rocshmem_malloc(BYTES)).capacity(BYTES);
        assertFalse(inbox.isNull() || outbox.isNull(), "symmetric allocation failed");
        for (int i = 0; i < BYTES; i++) {
            outbox.put(i, (byte) (me * 31 + i));
            inbox.put(i, (byte) 0);
        }
        rocshmem_barrier_all();

        rocshmem_putmem(inbox, outbox, BYTES, next);   // my outbox -> next PE's inbox
        rocshmem_barrier_all();
        for (int i = 0; i < BYTES; i++) {
            assertEquals((byte) (prev * 31 + i), inbox.get(i), "put byte " + i + " from PE " + prev);
        }

        // The extern host team handles are readable once init has set them.
        long world = ROCSHMEM_TEAM_WORLD();
        long shared = ROCSHMEM_TEAM_SHARED();
        assertFalse(world == ROCSHMEM_TEAM_INVALID(), "ROCSHMEM_TEAM_WORLD not set by init");
        assertEquals(n, rocshmem_team_n_pes(world));
        assertEquals(me, rocshmem_team_my_pe(world));
        assertEquals(n, rocshmem_team_n_pes(shared));
        assertEquals(-1, rocshmem_team_n_pes(ROCSHMEM_TEAM_INVALID()));

        // A context travels by value into every rocshmem_ctx_* call.
        rocshmem_ctx_t ctx = new rocshmem_ctx_t();
        assertEquals(0, rocshmem_ctx_create(0, ctx));
        outbox.put(0, (byte) 0x5A);
        rocshmem_barrier_all();
        rocshmem_ctx_putmem(ctx, inbox, outbox, 1, next);
        rocshmem_ctx_quiet(ctx);
        rocshmem_barrier_all();
        assertEquals((byte) 0x5A, inbox.get(0), "byte put through a context");
        rocshmem_ctx_destroy(ctx);

        BytePointer fetched = new BytePointer(BYTES);
        rocshmem_getmem(fetched, outbox, BYTES, next);  // next PE's outbox -> local memory
        for (int i = 0; i < BYTES; i++) {
            byte expected = i == 0 ? (byte) 0x5A : (byte) (next * 31 + i);
            assertEquals(expected, fetched.get(i), "get byte " + i + " from PE " + next);
        }

        rocshmem_barrier_all();
        rocshmem_free(outbox);
        rocshmem_free(inbox);
        rocshmem_finalize();
    }
}
