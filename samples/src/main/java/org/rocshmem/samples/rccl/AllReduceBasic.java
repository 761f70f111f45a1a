package org.rocshmem.samples.rccl;

import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.rccl.Communicator;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceMemory;
import org.rocshmem.api.rccl.RedOp;

/**
 * All-reduce, the "hello world" of RCCL: every rank fills a buffer with its rank + 1, the ranks sum their buffers,
 * and every rank checks that it holds 1 + 2 + ... + n everywhere. Exits with status 1 on a wrong value.
 *
 * <pre>
 * ./samples/run.sh rccl.AllReduceBasic 2 [count]
 * </pre>
 */
public final class AllReduceBasic {
    private AllReduceBasic() {
    }

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 16;
        int bad = -1;
        int rank;
        int ranks;
        double expected;
        try (Communicator comm = Communicator.init();
             HipStream stream = HipStream.create();
             DeviceMemory data = DeviceMemory.allocate(count, DataType.FLOAT32)) {
            rank = comm.rank();
            ranks = comm.size();
            double[] mine = new double[count];
            java.util.Arrays.fill(mine, rank + 1);
            data.copyFromHost(mine);

            comm.allReduce(data.buffer(), data.buffer(), count, RedOp.SUM, stream);  // in place
            stream.synchronize();

            expected = ranks * (ranks + 1) / 2.0;
            double[] result = data.copyToHost();
            for (int i = 0; i < count && bad < 0; i++) {
                if (result[i] != expected) {
                    bad = i;
                }
            }
        }
        if (bad >= 0) {
            System.out.printf("rank %d/%d: allreduce WRONG at element %d (expected %.1f)%n", rank, ranks, bad, expected);
            System.exit(1);
        }
        System.out.printf("rank %d/%d: allreduce sum = %.1f on all %d elements - verified%n", rank, ranks, expected,
                count);
    }
}
