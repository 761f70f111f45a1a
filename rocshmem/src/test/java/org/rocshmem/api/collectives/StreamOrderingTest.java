package org.rocshmem.api.collectives;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.CType;
import org.rocshmem.api.Compare;
import org.rocshmem.api.hip.HipEvent;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SignalOp;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.testsupport.InitializedPe;
import org.rocshmem.api.testing.MultiPe;

/**
 * The stream-ordered helpers: work on one stream runs in the order it was enqueued, across PEs; signals pace a
 * 200-round ping-pong without the host waiting per round; a completion future waits for the stream without
 * blocking a thread; events time a stretch of the stream.
 */
@Tag("emu")
class StreamOrderingTest {
    private static final int ROUNDS = 200;

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void orderingPingPongCompletionAndTiming() throws Exception {
        Rocshmem shmem = Rocshmem.current();
        int me = shmem.myPe();
        int peer = 1 - me;
        putBeforeBarrierIsVisibleAfterIt(shmem, me, peer);
        signalPingPong(shmem, me, peer);
        completionWaitsForTheStream(shmem, me, peer);
    }

    @Test
    @MultiPe(value = 4, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void orderingAroundARingOfFour() {
        Rocshmem shmem = Rocshmem.current();
        int me = shmem.myPe();
        putBeforeBarrierIsVisibleAfterIt(shmem, me, (me + 1) % 4);
    }

    /** A put enqueued before a barrier on the same stream has arrived when the barrier completes. */
    private static void putBeforeBarrierIsVisibleAfterIt(Rocshmem shmem, int me, int next) {
        int n = shmem.nPes();
        int prev = (me + n - 1) % n;
        try (SymmetricBuffer a = shmem.calloc(512, Long.BYTES); SymmetricBuffer b = shmem.calloc(512, Long.BYTES);
             HipStream stream = HipStream.create()) {
            long[] mine = new long[512];
            java.util.Arrays.setAll(mine, i -> me * 100_000L + i);
            a.asLongs().copyFrom(mine);
            shmem.barrierAll();
            b.asLongs().putmemOnStream(stream, next, a.asLongs());
            shmem.barrierAll(stream);
            stream.synchronize();
            long[] expected = new long[512];
            java.util.Arrays.setAll(expected, i -> prev * 100_000L + i);
            assertArrayEquals(expected, b.asLongs().toArray(), "the put before the stream barrier arrived");
            shmem.barrierAll();
        }
    }

    /**
     * 200 rounds, all enqueued at once: PE 0 puts round r's payload with a signal and waits for PE 1's answer;
     * PE 1 waits for the signal, answers with round r's own payload. The host synchronizes once, at the end.
     */
    private static void signalPingPong(Rocshmem shmem, int me, int peer) {
        try (SymmetricBuffer payloads = shmem.calloc(ROUNDS, Long.BYTES);
             SymmetricBuffer inbox = shmem.calloc(ROUNDS, Long.BYTES);
             SymmetricBuffer signalWords = shmem.calloc(2, Long.BYTES);
             HipStream stream = HipStream.create()) {
            long[] mine = new long[ROUNDS];
            java.util.Arrays.setAll(mine, r -> (me + 1) * 1_000_000L + r);
            payloads.asLongs().copyFrom(mine);
            SymmetricLongs signals = signalWords.asLongs(CType.UINT64);
            shmem.barrierAll();
            HipEvent start = stream.record();
            for (int r = 1; r <= ROUNDS; r++) {
                SymmetricLongs slotOut = payloads.asLongs().slice(r - 1, 1);
                SymmetricLongs slotIn = inbox.asLongs().slice(r - 1, 1);
                if (me == 0) {
                    slotIn.putmemSignalOnStream(stream, peer, slotOut, signals, 0, r, SignalOp.SET);
                    signals.signalWaitUntilOnStream(stream, 1, Compare.GE, r);
                } else {
                    signals.signalWaitUntilOnStream(stream, 0, Compare.GE, r);
                    slotIn.putmemSignalOnStream(stream, peer, slotOut, signals, 1, 1, SignalOp.ADD);
                }
            }
            HipEvent end = stream.record();
            stream.synchronize();
            double ms = end.millisSince(start);
            assertTrue(ms >= 0, "elapsed device time " + ms);
            long[] expected = new long[ROUNDS];
            java.util.Arrays.setAll(expected, r -> (peer + 1) * 1_000_000L + r);
            assertArrayEquals(expected, inbox.asLongs().toArray(), "every round's payload arrived");
            assertEquals(me == 0 ? ROUNDS : ROUNDS, signals.g(me, me == 0 ? 1 : 0), "final signal word");
            start.close();
            end.close();
            shmem.barrierAll();
        }
    }

    /** The future stays pending while the stream waits for a signal, and completes once the signal came. */
    private static void completionWaitsForTheStream(Rocshmem shmem, int me, int peer) throws Exception {
        try (SymmetricBuffer signalWord = shmem.calloc(1, Long.BYTES); SymmetricBuffer data = shmem.calloc(4,
                Long.BYTES); HipStream stream = HipStream.create()) {
            SymmetricLongs signal = signalWord.asLongs(CType.UINT64);
            shmem.barrierAll();
            if (me == 0) {
                signal.signalWaitUntilOnStream(stream, 0, Compare.EQ, 42);
                CompletableFuture<Void> done = stream.completion();
                CompletableFuture<String> after = done.thenApply(v -> "ran after the stream");
                Thread.sleep(300);
                assertFalse(done.isDone(), "the stream is still waiting for the signal");
                shmem.barrierAll(); // lets PE 1 send the data and the signal
                done.get(30, TimeUnit.SECONDS);
                assertEquals("ran after the stream", after.get(30, TimeUnit.SECONDS));
                assertArrayEquals(new long[] {1, 2, 3, 4}, data.asLongs().toArray(), "data came before the signal");
            } else {
                shmem.barrierAll();
                data.asLongs().put(peer, new long[] {1, 2, 3, 4});
                shmem.fence();
                signal.atomicSet(peer, 0, 42);
            }
            shmem.barrierAll();
        }
    }
}
