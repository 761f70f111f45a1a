package org.rocshmem.samples.kernels;

import org.rocshmem.api.CType;
import org.rocshmem.api.hip.Dim3;
import org.rocshmem.api.hip.HipModule;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;

/**
 * A pipeline between PE pairs (0 to 1, 2 to 3, ...) inside one kernel ({@code pipeline},
 * src/main/hip/kernels/pipeline.hip): the producer's work-group sends chunk after chunk with
 * {@code rocshmem_putmem_signal_wg}, the consumer's work-group waits for each chunk's signal with a device-side
 * {@code rocshmem_uint64_wait_until} and sums the chunk. Needs an even number of PEs.
 *
 * <pre>
 * ./samples/run.sh kernels.SignalPipeline 2
 * </pre>
 */
public final class SignalPipeline {
    private SignalPipeline() {
    }

    public static void main(String[] args) {
        int chunks = 16;
        int chunk = 64;
        try (Rocshmem shmem = Rocshmem.init();
             HipModule module = HipModule.loadResource("kernels/pipeline");
             SymmetricBuffer staging = shmem.calloc((long) chunks * chunk, Long.BYTES);
             SymmetricBuffer source = shmem.calloc((long) chunks * chunk, Long.BYTES);
             SymmetricBuffer signal = shmem.calloc(1, Long.BYTES);
             SymmetricBuffer sums = shmem.calloc(chunks, Long.BYTES);
             HipStream stream = HipStream.create()) {
            int me = shmem.myPe();
            if (shmem.nPes() % 2 != 0) {
                throw new IllegalArgumentException("SignalPipeline pairs the PEs: run it on an even number of PEs");
            }
            shmem.initModule(module);
            long[] data = new long[chunks * chunk];
            for (int i = 0; i < data.length; i++) {
                data[i] = me * 1_000_000L + i;
            }
            source.asLongs().copyFrom(data);
            shmem.barrierAll();
            module.kernel("pipeline").launch(Dim3.of(1), Dim3.of(64), 0, stream, staging.asLongs(), source.asLongs(),
                    signal.asLongs(CType.UINT64), sums.asLongs(), chunks, chunk);
            stream.synchronize();
            shmem.barrierAll();
            if (me % 2 == 1) {
                long[] expected = new long[chunks];
                for (int c = 0; c < chunks; c++) {
                    for (int i = 0; i < chunk; i++) {
                        expected[c] += (me - 1) * 1_000_000L + (long) c * chunk + i;
                    }
                }
                Verify.equal("chunk sums from PE " + (me - 1), me, expected, sums.asLongs().toArray());
            } else {
                System.out.printf("PE %d: sent %d chunks to PE %d%n", me, chunks, me + 1);
            }
        }
    }
}
