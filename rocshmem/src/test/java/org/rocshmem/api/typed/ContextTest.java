package org.rocshmem.api.typed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.Context;
import org.rocshmem.api.ContextOption;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.RocshmemStateException;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricInts;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.testsupport.InitializedPe;
import org.rocshmem.api.testing.MultiPe;

/**
 * Contexts are independent: each carries its own operations, quiet and fence, and its own lifetime. Closing one
 * leaves the others, and views bound to them, working; a closed one refuses everything before native code.
 */
@Tag("emu")
class ContextTest {

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 90)
    void contextsStayIsolatedAndDieAlone() {
        Rocshmem shmem = Rocshmem.current();
        int me = shmem.myPe();
        int other = 1 - me;
        Context serialized = shmem.createContext(ContextOption.SERIALIZED);
        Context privateOne = shmem.createContext(EnumSet.of(ContextOption.PRIVATE, ContextOption.NOSTORE));
        assertEquals(EnumSet.of(ContextOption.SERIALIZED), serialized.options());
        assertEquals(EnumSet.of(ContextOption.PRIVATE, ContextOption.NOSTORE), privateOne.options());
        try (SymmetricBuffer buffer = shmem.calloc(8, Long.BYTES)) {
            SymmetricLongs viaA = buffer.asLongs().slice(0, 4).withContext(serialized);
            SymmetricLongs viaB = buffer.asLongs().slice(4, 4).withContext(privateOne);
            SymmetricLongs plain = buffer.asLongs();
            assertSame(serialized, viaA.context());
            assertEquals(null, plain.context(), "a view without context uses the library's default one");

            // each context moves its own data; quiet on each completes its own puts
            try (SymmetricBuffer staging = shmem.calloc(8, Long.BYTES)) {
                SymmetricLongs local = staging.asLongs();
                local.copyFrom(new long[] {1, 2, 3, 4 + me, 5, 6, 7, 8 + me});
                viaA.putNbi(other, local.slice(0, 4));
                viaB.putNbi(other, local.slice(4, 4));
                serialized.quiet();
                privateOne.quiet(); // before the staging buffer goes
            }
            viaA.atomicAdd(other, 0, 100);
            serialized.quiet();
            privateOne.fence();
            privateOne.quiet();
            shmem.barrierAll();
            assertArrayEquals(new long[] {101, 2, 3, 4 + other, 5, 6, 7, 8 + other}, plain.toArray());
            shmem.barrierAll();

            // closing A leaves B (and its views) working; A's views and A itself refuse to run
            serialized.close();
            serialized.close(); // idempotent
            assertTrue(serialized.isClosed());
            RocshmemStateException closed = assertThrows(RocshmemStateException.class, () -> viaA.p(other, 0, 9));
            assertTrue(closed.getMessage().contains("context was closed"), closed.getMessage());
            assertThrows(RocshmemStateException.class, serialized::quiet);
            assertThrows(RocshmemStateException.class, serialized::fence);
            assertThrows(RocshmemStateException.class, () -> plain.withContext(serialized));
            viaB.p(other, 0, 42 + me);
            privateOne.quiet();
            shmem.barrierAll();
            assertEquals(42 + other, plain.g(me, 4), "B still works after A was closed");
            assertEquals(42 + other, viaB.g(me, 0));

            // a view can move to another context, or back to the default one
            SymmetricInts ints = buffer.asInts().slice(0, 2).withContext(privateOne).withContext(null);
            assertEquals(null, ints.context());
            ints.p(other, 1, -7);
            shmem.barrierAll();
            assertEquals(-7, ints.g(me, 1));
            shmem.barrierAll();
        }
        privateOne.close();

        // the session's default context exists for the host collectives and only finalize destroys it
        Context sessionDefault = shmem.defaultContext();
        assertTrue(sessionDefault.isSessionDefault());
        assertSame(sessionDefault, shmem.defaultContext());
        assertThrows(UnsupportedOperationException.class, sessionDefault::close);
        assertFalse(sessionDefault.isClosed());
        sessionDefault.quiet();

        // a context left open is destroyed by finalize (InitializedPe closes the session after the test)
        Context leaked = shmem.createContext();
        leaked.fence();
        Rocshmem.current().close();
        assertTrue(leaked.isClosed(), "finalize destroys contexts left open");
        assertTrue(sessionDefault.isClosed(), "finalize destroys the session's default context");
    }
}
