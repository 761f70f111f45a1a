package org.rocshmem.samples.kernels;

import org.rocshmem.api.hip.Dim3;
import org.rocshmem.api.hip.HipModule;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;

/**
 * One stream mixing host-initiated stream operations with a kernel: put into the next PE and barrier (both
 * stream-ordered rocSHMEM calls), the kernel {@code scale} (src/main/hip/kernels/scale.hip) triples what arrived,
 * then a put back to the previous PE and a barrier. The host enqueues everything and waits once.
 *
 * <pre>
 * ./samples/run.sh kernels.StreamWithKernel 2
 * </pre>
 */
public final class StreamWithKernel {
    private StreamWithKernel() {
    }

    public static void main(String[] args) {
        int count = 1024;
        try (Rocshmem shmem = Rocshmem.init();
             HipModule module = HipModule.loadResource("kernels/scale");  // no rocSHMEM call: no initModule needed
             SymmetricBuffer outbox = shmem.calloc(count, Long.BYTES);
             SymmetricBuffer inbox = shmem.calloc(count, Long.BYTES);
             SymmetricBuffer back = shmem.calloc(count, Long.BYTES);
             HipStream stream = HipStream.create()) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            long[] mine = new long[count];
            for (int i = 0; i < count; i++) {
                mine[i] = me * 100_000L + i;
            }
            outbox.asLongs().copyFrom(mine);
            shmem.barrierAll();

            SymmetricLongs received = inbox.asLongs();
            received.putmemOnStream(stream, (me + 1) % n, outbox.asLongs());   // rocshmem_*_on_stream
            shmem.barrierAll(stream);
            module.kernel("scale").launch(Dim3.of(4), Dim3.of(64), 0, stream, received, count, 3L);
            back.asLongs().putmemOnStream(stream, (me + n - 1) % n, received);
            shmem.barrierAll(stream);
            stream.synchronize();

            long[] expected = new long[count];
            for (int i = 0; i < count; i++) {
                expected[i] = 3 * mine[i];
            }
            Verify.equal("own data, tripled by PE " + (me + 1) % n, me, expected, back.asLongs().toArray());
        }
    }
}
