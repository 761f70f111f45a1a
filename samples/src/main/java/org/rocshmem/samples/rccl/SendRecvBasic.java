package org.rocshmem.samples.rccl;

import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.rccl.Communicator;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceMemory;
import org.rocshmem.api.rccl.Group;
import org.rocshmem.api.rccl.Rccl;

/**
 * Point-to-point in a ring: every rank sends a block stamped with its rank to the next rank and receives the
 * previous rank's block. The send and the receive are grouped, so they progress together: without the group a
 * ring of blocking sends could deadlock. Exits with status 1 on a wrong value.
 *
 * <pre>
 * ./samples/run.sh rccl.SendRecvBasic 2 [count]
 * </pre>
 */
public final class SendRecvBasic {
    private SendRecvBasic() {
    }

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 18;
        int rank;
        int ranks;
        int previous;
        int bad = -1;
        try (Communicator comm = Communicator.init();
             HipStream stream = HipStream.create();
             DeviceMemory outgoing = DeviceMemory.allocate(count, DataType.INT32);
             DeviceMemory incoming = DeviceMemory.allocate(count, DataType.INT32)) {
            rank = comm.rank();
            ranks = comm.size();
            int next = (rank + 1) % ranks;
            previous = (rank + ranks - 1) % ranks;
            outgoing.copyFromHost(stamp(rank, count));

            try (Group group = Rccl.group()) {
                comm.send(outgoing.buffer(), count, next, stream);
                comm.recv(incoming.buffer(), count, previous, stream);
            }
            stream.synchronize();

            double[] expected = stamp(previous, count);
            double[] received = incoming.copyToHost();
            for (int i = 0; i < count && bad < 0; i++) {
                if (received[i] != expected[i]) {
                    bad = i;
                }
            }
        }
        if (bad >= 0) {
            System.out.printf("rank %d/%d: block from rank %d WRONG at element %d%n", rank, ranks, previous, bad);
            System.exit(1);
        }
        System.out.printf("rank %d/%d: received %d ints from rank %d - verified%n", rank, ranks, count, previous);
    }

    /** Rank in the high bits, index in the low bits: a block from the wrong rank or a shifted copy both fail. */
    static double[] stamp(int rank, int count) {
        double[] block = new double[count];
        for (int i = 0; i < count; i++) {
            block[i] = (rank << 20) | (i & 0xfffff);
        }
        return block;
    }
}
