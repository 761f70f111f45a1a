package org.rocshmem.api.rccl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.rccl.Values.Op;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceMemory;

/**
 * Every collective of the typed API, for every data type and (for reductions) every operator, checked value by
 * value on this rank. Runs inside a PE JVM; all ranks run the same sequence.
 */
final class CollectiveMatrix {
    private final Communicator comm;
    private final HipStream stream;
    private final int n;
    private final int me;
    private int checks;

    CollectiveMatrix(Communicator comm, HipStream stream) {
        this.comm = comm;
        this.stream = stream;
        this.n = comm.size();
        this.me = comm.rank();
    }

    int run() {
        for (DataType type : DataType.values()) {
            for (Op op : Op.values()) {
                allReduce(type, op, false);
                reduce(type, op);
                reduceScatter(type, op);
                allReduceWithBias(type, op, true);
            }
            allReduce(type, Op.SUM, true);
            allReduceWithBias(type, Op.SUM, false);
            broadcast(type);
            allGather(type);
            gatherScatter(type);
            allToAll(type);
            allToAllv(type);
            sendRecvRing(type);
        }
        return checks;
    }

    private void expect(double expected, double actual, String what) {
        checks++;
        assertEquals(expected, actual, what);
    }

    /** The operator for {@code op}; a PreMulSum carries this rank's scalar (host copy, or read on the device). */
    private ReductionOp operator(Op op, DataType type, DeviceMemory deviceScalar) {
        return switch (op) {
            case SUM -> RedOp.SUM;
            case PROD -> RedOp.PROD;
            case MAX -> RedOp.MAX;
            case MIN -> RedOp.MIN;
            case AVG -> RedOp.AVG;
            case PREMUL_HOST -> comm.createPreMulSum(Values.scalar(me), type);
            case PREMUL_DEVICE -> {
                deviceScalar.copyFromHost(Values.scalar(me));
                yield comm.createPreMulSum(deviceScalar.buffer());
            }
        };
    }

    private static void release(ReductionOp op) {
        if (op instanceof PreMulSum custom) {
            custom.close();
        }
    }

    private void allReduce(DataType type, Op op, boolean inPlace) {
        long count = 3L * n + 1;  // uneven per-rank segments
        try (DeviceMemory send = DeviceMemory.allocate(count, type);
             DeviceMemory recv = DeviceMemory.allocate(count, type);
             DeviceMemory scalar = DeviceMemory.allocate(1, type)) {
            send.copyFromHost(Values.fill(count, i -> Values.v(me, i)));
            ReductionOp operator = operator(op, type, scalar);
            DeviceMemory out = inPlace ? send : recv;
            comm.allReduce(send.buffer(), out.buffer(), count, operator, stream);
            stream.synchronize();
            release(operator);
            double[] got = out.copyToHost();
            for (int k = 0; k < count; k++) {
                expect(Values.expectedReduction(op, type, n, k), got[k], "allReduce " + op + " " + type + " [" + k + "]");
            }
        }
    }

    private void reduce(DataType type, Op op) {
        long count = 5;
        int root = n - 1;
        try (DeviceMemory send = DeviceMemory.allocate(count, type);
             DeviceMemory recv = DeviceMemory.allocate(count, type);
             DeviceMemory scalar = DeviceMemory.allocate(1, type)) {
            send.copyFromHost(Values.fill(count, i -> Values.v(me, i)));
            recv.copyFromHost(new double[(int) count]);
            ReductionOp operator = operator(op, type, scalar);
            comm.reduce(send.buffer(), me == root ? recv.buffer() : null, count, operator, root, stream);
            stream.synchronize();
            release(operator);
            double[] got = recv.copyToHost();
            for (int k = 0; k < count; k++) {
                expect(me == root ? Values.expectedReduction(op, type, n, k) : 0, got[k], "reduce " + op + " " + type);
            }
        }
    }

    private void reduceScatter(DataType type, Op op) {
        long block = 3;
        try (DeviceMemory send = DeviceMemory.allocate(block * n, type);
             DeviceMemory recv = DeviceMemory.allocate(block, type);
             DeviceMemory scalar = DeviceMemory.allocate(1, type)) {
            send.copyFromHost(Values.fill(block * n, i -> Values.v(me, i)));
            ReductionOp operator = operator(op, type, scalar);
            comm.reduceScatter(send.buffer(), recv.buffer(), block, operator, stream);
            stream.synchronize();
            release(operator);
            double[] got = recv.copyToHost();
            for (int j = 0; j < block; j++) {
                expect(Values.expectedReduction(op, type, n, me * block + j), got[j], "reduceScatter " + op + " " + type);
            }
        }
    }

    private void allReduceWithBias(DataType type, Op op, boolean withBias) {
        long count = 4;
        double bias = 1 + me % 2;  // the bias is this rank's own
        try (DeviceMemory send = DeviceMemory.allocate(count, type);
             DeviceMemory recv = DeviceMemory.allocate(count, type);
             DeviceMemory biasMemory = DeviceMemory.allocate(count, type);
             DeviceMemory scalar = DeviceMemory.allocate(1, type)) {
            send.copyFromHost(Values.fill(count, i -> Values.v(me, i)));
            biasMemory.copyFromHost(Values.fill(count, i -> bias));
            ReductionOp operator = operator(op, type, scalar);
            comm.allReduceWithBias(send.buffer(), recv.buffer(), count, operator,
                    withBias ? biasMemory.buffer() : null, stream);
            stream.synchronize();
            release(operator);
            double[] got = recv.copyToHost();
            for (int k = 0; k < count; k++) {
                double reduced = Values.expectedReduction(op, type, n, k);
                double combined = switch (op) {
                    case PROD -> reduced * bias;
                    case MAX -> Math.max(reduced, bias);
                    case MIN -> Math.min(reduced, bias);
                    default -> reduced + bias;
                };
                expect(withBias ? Values.rounded(type, combined) : reduced, got[k],
                        "allReduceWithBias " + op + " " + type + (withBias ? "" : " (no bias)"));
            }
        }
    }

    private void broadcast(DataType type) {
        long count = 3;
        int root = 1 % n;
        try (DeviceMemory send = DeviceMemory.allocate(count, type); DeviceMemory recv = DeviceMemory.allocate(count, type)) {
            send.copyFromHost(Values.fill(count, i -> Values.w(me, i)));
            comm.broadcast(me == root ? send.buffer() : null, recv.buffer(), count, root, stream);
            stream.synchronize();
            double[] got = recv.copyToHost();
            for (int i = 0; i < count; i++) {
                expect(Values.w(root, i), got[i], "broadcast " + type);
            }
        }
    }

    private void allGather(DataType type) {
        long count = 3;
        try (DeviceMemory send = DeviceMemory.allocate(count, type);
             DeviceMemory recv = DeviceMemory.allocate(count * n, type)) {
            send.copyFromHost(Values.fill(count, i -> Values.w(me, i)));
            comm.allGather(send.buffer(), recv.buffer(), count, stream);
            stream.synchronize();
            double[] got = recv.copyToHost();
            for (int r = 0; r < n; r++) {
                for (int i = 0; i < count; i++) {
                    expect(Values.w(r, i), got[(int) (r * count + i)], "allGather " + type);
                }
            }
        }
    }

    private void gatherScatter(DataType type) {
        long count = 2;
        int gatherRoot = 0;
        int scatterRoot = n - 1;
        try (DeviceMemory send = DeviceMemory.allocate(count, type);
             DeviceMemory gathered = DeviceMemory.allocate(count * n, type);
             DeviceMemory all = DeviceMemory.allocate(count * n, type);
             DeviceMemory part = DeviceMemory.allocate(count, type)) {
            send.copyFromHost(Values.fill(count, i -> Values.w(me, i)));
            all.copyFromHost(Values.fill(count * n, i -> Values.w(me, i)));
            comm.gather(send.buffer(), me == gatherRoot ? gathered.buffer() : null, count, gatherRoot, stream);
            comm.scatter(me == scatterRoot ? all.buffer() : null, part.buffer(), count, scatterRoot, stream);
            stream.synchronize();
            if (me == gatherRoot) {
                double[] got = gathered.copyToHost();
                for (int r = 0; r < n; r++) {
                    for (int i = 0; i < count; i++) {
                        expect(Values.w(r, i), got[(int) (r * count + i)], "gather " + type);
                    }
                }
            }
            double[] got = part.copyToHost();
            for (int i = 0; i < count; i++) {
                expect(Values.w(scatterRoot, me * count + i), got[i], "scatter " + type);
            }
        }
    }

    private void allToAll(DataType type) {
        long count = 2;
        try (DeviceMemory send = DeviceMemory.allocate(count * n, type);
             DeviceMemory recv = DeviceMemory.allocate(count * n, type)) {
            send.copyFromHost(Values.fill(count * n, i -> Values.w(me, i)));
            comm.allToAll(send.buffer(), recv.buffer(), count, stream);
            stream.synchronize();
            double[] got = recv.copyToHost();
            for (int r = 0; r < n; r++) {
                for (int i = 0; i < count; i++) {
                    expect(Values.w(r, me * count + i), got[(int) (r * count + i)], "allToAll " + type);
                }
            }
        }
    }

    /** Rank s sends (s + d) % 3 + 1 elements to rank d, tagged w(s + d, i). */
    private void allToAllv(DataType type) {
        long[] sendCounts = new long[n];
        long[] sendDispls = new long[n];
        long[] recvCounts = new long[n];
        long[] recvDispls = new long[n];
        long sent = 0;
        long received = 0;
        for (int p = 0; p < n; p++) {
            sendCounts[p] = (me + p) % 3 + 1;
            sendDispls[p] = sent;
            sent += sendCounts[p];
            recvCounts[p] = (p + me) % 3 + 1;
            recvDispls[p] = received;
            received += recvCounts[p];
        }
        double[] outgoing = new double[(int) sent];
        for (int p = 0; p < n; p++) {
            for (int i = 0; i < sendCounts[p]; i++) {
                outgoing[(int) (sendDispls[p] + i)] = Values.w(me + p, i);
            }
        }
        try (DeviceMemory send = DeviceMemory.allocate(sent, type); DeviceMemory recv = DeviceMemory.allocate(received, type)) {
            send.copyFromHost(outgoing);
            comm.allToAllv(send.buffer(), sendCounts, sendDispls, recv.buffer(), recvCounts, recvDispls, stream);
            stream.synchronize();
            double[] got = recv.copyToHost();
            for (int p = 0; p < n; p++) {
                for (int i = 0; i < recvCounts[p]; i++) {
                    expect(Values.w(p + me, i), got[(int) (recvDispls[p] + i)], "allToAllv " + type);
                }
            }
        }
    }

    private void sendRecvRing(DataType type) {
        long count = 3;
        int next = (me + 1) % n;
        int previous = (me + n - 1) % n;
        try (DeviceMemory out = DeviceMemory.allocate(count, type); DeviceMemory in = DeviceMemory.allocate(count, type)) {
            out.copyFromHost(Values.fill(count, i -> Values.w(me, i)));
            try (Group group = Rccl.group()) {
                comm.send(out.buffer(), count, next, stream);
                comm.recv(in.buffer(), count, previous, stream);
            }
            stream.synchronize();
            double[] got = in.copyToHost();
            for (int i = 0; i < count; i++) {
                expect(Values.w(previous, i), got[i], "send/recv ring " + type);
            }
        }
    }
}
