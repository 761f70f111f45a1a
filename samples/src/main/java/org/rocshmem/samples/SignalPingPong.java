package org.rocshmem.samples;

import org.rocshmem.api.CType;
import org.rocshmem.api.Compare;
import org.rocshmem.api.hip.HipEvent;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SignalOp;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;

/**
 * Ping-pong paced by signals on a stream: PE 0 puts a message with a signal, PE 1 waits for the signal on its
 * stream and answers the same way. All rounds are enqueued at once; the host waits once, then checks every
 * answer and prints the device-timed round trip.
 *
 * <pre>
 * ./samples/run.sh SignalPingPong 2 [rounds]
 * </pre>
 */
public final class SignalPingPong {
    private SignalPingPong() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        boolean ok;
        try (Rocshmem shmem = Rocshmem.init();
             SymmetricBuffer outbox = shmem.malloc((long) rounds * Long.BYTES);
             SymmetricBuffer inbox = shmem.calloc(rounds, Long.BYTES);
             SymmetricBuffer signalWords = shmem.calloc(2, Long.BYTES);
             HipStream stream = HipStream.create()) {
            int me = shmem.myPe();
            if (shmem.nPes() != 2) {
                throw new IllegalArgumentException("SignalPingPong runs on 2 PEs, not " + shmem.nPes());
            }
            int peer = 1 - me;
            long[] messages = new long[rounds];
            for (int r = 0; r < rounds; r++) {
                messages[r] = (me + 1) * 1_000_000L + r;
            }
            outbox.asLongs().copyFrom(messages);
            SymmetricLongs signals = signalWords.asLongs(CType.UINT64);
            shmem.barrierAll();

            HipEvent start = stream.record();
            for (int r = 1; r <= rounds; r++) {
                SymmetricLongs out = outbox.asLongs().slice(r - 1, 1);
                SymmetricLongs in = inbox.asLongs().slice(r - 1, 1);
                if (me == 0) {
                    in.putmemSignalOnStream(stream, peer, out, signals, 0, r, SignalOp.SET);  // ping
                    signals.signalWaitUntilOnStream(stream, 1, Compare.GE, r);               // wait for the pong
                } else {
                    signals.signalWaitUntilOnStream(stream, 0, Compare.GE, r);               // wait for the ping
                    in.putmemSignalOnStream(stream, peer, out, signals, 1, 1, SignalOp.ADD);  // pong
                }
            }
            HipEvent end = stream.record();
            stream.synchronize();
            double millis = end.millisSince(start);
            start.close();
            end.close();

            long[] got = inbox.asLongs().toArray();
            int firstBad = -1;
            for (int r = 0; r < rounds && firstBad < 0; r++) {
                if (got[r] != (peer + 1) * 1_000_000L + r) {
                    firstBad = r;
                }
            }
            ok = firstBad < 0;
            System.out.printf("PE %d: %d rounds on a stream, %.2f us per round trip: %s%n", me, rounds,
                    millis * 1000 / rounds, ok ? "verified" : "WRONG at round " + firstBad);
            shmem.barrierAll();
        }
        if (!ok) {
            System.exit(1);
        }
    }
}
