package org.rocshmem.api.rccl;

import static org.rocshmem.global.rccl.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.SizeTPointer;
import org.rocshmem.api.bootstrap.JobRendezvous;
import org.rocshmem.api.bootstrap.UniqueIdExchange;
import org.rocshmem.api.bootstrap.UniqueIdKind;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceBuffer;
import org.rocshmem.api.hip.DeviceSelection;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.presets.NativeVariant;
import org.rocshmem.api.hip.ElementCodec;
import org.rocshmem.rccl.ncclComm;

/**
 * An RCCL communicator ({@code ncclComm_t}): {@code try (Communicator comm = Communicator.init()) {...}}.
 *
 * <p>Creation: {@link #init(JobRendezvous)} from any rendezvous, rocSHMEM's {@code Bootstrap} strategies included
 * ({@link #init()}: the launcher's, mpirun's or srun's environment, rank 0 serving the id over the TCP rendezvous;
 * {@code Bootstrap.exchange} with your own {@link UniqueIdExchange}), {@link #init(int, UniqueId, int, Config)}
 * (every rank holds the same {@link UniqueId}), {@link #initAll} (one rank per device in this process),
 * {@link #split} and {@link #shrink}.
 *
 * <p>Collectives are enqueued on a {@link HipStream} and return at once; synchronize the stream before reading
 * the result. Each takes device memory as a {@link DeviceBuffer} (its factories take a JavaCPP {@code Pointer} or
 * any {@code DeviceRegion}, each with its {@link DataType}; a symmetric view's {@code asDeviceBuffer()}); counts are in
 * elements and are checked against the memory's extent before anything reaches RCCL. Every rank must call the same collectives in
 * the same order. A communicator is not thread-safe (as in RCCL).
 *
 * <p>{@link #close()} is collective (ncclCommFinalize, then ncclCommDestroy), like closing a symmetric buffer:
 * every rank closes its communicators in the same order. A communicator that failed (see {@link #asyncError()})
 * is aborted instead. {@link #abort()} is local and never waits for peers.
 */
public final class Communicator extends CommunicatorLifecycle {
    /** Color for {@link #split} of a rank that wants no new communicator ({@code NCCL_SPLIT_NOCOLOR}). */
    public static final int NO_COLOR = NCCL_SPLIT_NOCOLOR;

    private Communicator(ncclComm handle) {
        super(handle);
    }

    // ------------------------------------------------------------------ creation

    /** ncclCommInitRank: collective over the {@code nranks} ranks holding {@code id}. */
    public static Communicator init(int nranks, UniqueId id, int rank) {
        return init(nranks, id, rank, null);
    }

    /** ncclCommInitRankConfig ({@code config} may be null). */
    public static Communicator init(int nranks, UniqueId id, int rank, Config config) {
        Objects.requireNonNull(id, "id");
        if (nranks < 1 || rank < 0 || rank >= nranks) {
            throw new IllegalArgumentException("rank " + rank + " must be in [0, nranks=" + nranks + ")");
        }
        return new Communicator(CommunicatorHandles.initRank(nranks, id, rank, config));
    }

    /** Like {@link #init(JobRendezvous)} with the launch environment's rendezvous. */
    public static Communicator init() {
        return init(JobRendezvous.fromLaunchEnvironment());
    }

    /**
     * The communicator of the ranks {@code bootstrap} describes, its id brought the way rocSHMEM's is (tagged as
     * RCCL's, so one exchange or port serves both libraries, in either order). The HIP device is pinned from
     * LOCAL_RANK as {@code Rocshmem.init} does. Collective.
     *
     * @throws UnsupportedOperationException for {@code Bootstrap.libraryOwn()}: RCCL has no bootstrap of its own
     */
    public static Communicator init(JobRendezvous bootstrap) {
        Objects.requireNonNull(bootstrap, "bootstrap");
        Rccl.load();
        DeviceSelection.fromEnvironment(System.getenv(), NativeVariant.loaded() == NativeVariant.EMULATOR);
        byte[] id = bootstrap.uniqueIdFor(UniqueIdKind.RCCL, () -> Rccl.createUniqueId().bytes());
        return init(bootstrap.nranks(), UniqueId.of(id), bootstrap.rank());
    }

    /** ncclCommInitAll on devices 0..ndev-1: one communicator per device, all in this process, rank = index. */
    public static List<Communicator> initAll(int ndev) {
        if (ndev < 1) {
            throw new IllegalArgumentException("ndev must be >= 1, got " + ndev);
        }
        return initAll(null, ndev);
    }

    /** ncclCommInitAll on the given devices, in rank order. */
    public static List<Communicator> initAll(int... devices) {
        if (devices == null || devices.length == 0) {
            throw new IllegalArgumentException("initAll needs at least one device");
        }
        return initAll(devices, devices.length);
    }

    private static List<Communicator> initAll(int[] devices, int ndev) {
        return CommunicatorHandles.initAll(devices, ndev).stream().map(Communicator::new).toList();
    }

    /**
     * ncclCommSplit, collective over this communicator: ranks giving the same {@code color} (>= 0) form a new
     * communicator, ordered by {@code key} (then by their rank here). {@link #NO_COLOR} takes part and gets
     * nothing. Inside a {@link Group} the new communicator becomes usable when the group closes.
     */
    public Optional<Communicator> split(int color, int key) {
        return split(color, key, null);
    }

    public Optional<Communicator> split(int color, int key, Config config) {
        requireOpen();
        if (color < 0 && color != NO_COLOR) {
            throw new IllegalArgumentException("split color must be >= 0 or NO_COLOR, got " + color);
        }
        ncclComm created = CommunicatorHandles.split(handle, color, key, config);
        return created.isNull() ? Optional.empty() : Optional.of(new Communicator(created));
    }

    /**
     * ncclCommShrink: a communicator of every rank except {@code excludedRanks} (which must not call this),
     * renumbered in order. With {@code abortOngoing} the operations still running on this communicator are
     * cancelled first ({@code NCCL_SHRINK_ABORT}), for recovering from a failed rank.
     */
    public Communicator shrink(boolean abortOngoing, int... excludedRanks) {
        Objects.requireNonNull(excludedRanks, "excludedRanks");
        requireNotClosed();
        for (int excluded : excludedRanks) {
            checkRank("excluded rank", excluded);
            if (excluded == rank()) {
                throw new IllegalArgumentException("rank " + excluded + " is excluded: it must not call shrink");
            }
        }
        return new Communicator(CommunicatorHandles.shrink(handle, abortOngoing, excludedRanks));
    }

    // ------------------------------------------------------------------ reduction operators

    /**
     * ncclRedOpCreatePreMulSum with the scalar in host memory, read now ({@code ncclScalarHostImmediate}).
     * {@code scalar} points at one element of {@code type}.
     */
    public PreMulSum createPreMulSum(Pointer scalar, DataType type) {
        return createPreMulSum(scalar, type, ncclScalarHostImmediate);
    }

    /** The same with {@code value} converted to {@code type} (rounded to nearest even). */
    public PreMulSum createPreMulSum(double value, DataType type) {
        try (Pointer scalar = new org.bytedeco.javacpp.BytePointer(8)) {
            ElementCodec.put(type, scalar.asByteBuffer(), 0, value);
            return createPreMulSum(scalar, type, ncclScalarHostImmediate);
        }
    }

    /** ncclRedOpCreatePreMulSum with the scalar in device memory, read each time a collective runs. */
    public PreMulSum createPreMulSum(DeviceBuffer scalarOnDevice) {
        Objects.requireNonNull(scalarOnDevice, "scalarOnDevice");
        scalarOnDevice.requireElements("PreMulSum scalar", 1);
        return createPreMulSum(scalarOnDevice.pointer(), scalarOnDevice.type(), ncclScalarDevice);
    }

    private PreMulSum createPreMulSum(Pointer scalar, DataType type, int residence) {
        requireOpen();
        Objects.requireNonNull(type, "type");
        if (scalar == null || scalar.isNull()) {
            throw new IllegalArgumentException("PreMulSum scalar pointer is null");
        }
        int[] op = {0};
        Rccl.check(ncclRedOpCreatePreMulSum(op, scalar, DataTypes.code(type), residence, handle), "ncclRedOpCreatePreMulSum",
                handle);
        return new PreMulSum(this, op[0], type);
    }

    // ------------------------------------------------------------------ collectives

    /** ncclAllReduce: {@code recv[i] = op over ranks of send[i]} for {@code count} elements (in place if equal). */
    public void allReduce(DeviceBuffer send, DeviceBuffer recv, long count, ReductionOp op, HipStream stream) {
        DataType type = prepare("allReduce", send, recv, count);
        send.requireElements("allReduce send buffer", count);
        recv.requireElements("allReduce receive buffer", count);
        Rccl.check(ncclAllReduce(send.pointer(), recv.pointer(), count, DataTypes.code(type), opFor(op, type), handle,
                stream.handle()), "ncclAllReduce", handle);
    }

    /**
     * ncclAllReduceWithBias (RCCL only): the all-reduce, then this rank's {@code bias} combined into the result
     * with the operator ({@code recv = op(allreduce(send), bias)}; the sum for AVG and PreMulSum). A null bias
     * makes it a plain all-reduce.
     */
    public void allReduceWithBias(DeviceBuffer send, DeviceBuffer recv, long count, ReductionOp op, DeviceBuffer bias,
                                  HipStream stream) {
        DataType type = prepare("allReduceWithBias", send, recv, count);
        send.requireElements("allReduceWithBias send buffer", count);
        recv.requireElements("allReduceWithBias receive buffer", count);
        if (bias != null) {
            CollectiveArguments.sameType("allReduceWithBias bias", bias, type);
            bias.requireElements("allReduceWithBias bias", count);
        }
        Rccl.check(ncclAllReduceWithBias(send.pointer(), recv.pointer(), count, DataTypes.code(type), opFor(op, type), handle,
                stream.handle(), bias == null ? null : bias.pointer()), "ncclAllReduceWithBias", handle);
    }

    /** ncclBroadcast: {@code count} elements of root's {@code send} into every rank's {@code recv}; send may be null off the root. */
    public void broadcast(DeviceBuffer send, DeviceBuffer recv, long count, int root, HipStream stream) {
        DataType type = prepareOne("broadcast", recv, count);
        checkRank("root", root);
        if (rank() == root) {
            CollectiveArguments.present("broadcast send buffer (on the root)", send);
            CollectiveArguments.sameType("broadcast send buffer", send, type);
            send.requireElements("broadcast send buffer", count);
        }
        recv.requireElements("broadcast receive buffer", count);
        Rccl.check(ncclBroadcast(send == null ? null : send.pointer(), recv.pointer(), count, DataTypes.code(type), root, handle,
                stream.handle()), "ncclBroadcast", handle);
    }

    /** ncclReduce: the reduction of every rank's {@code send} into root's {@code recv} (null off the root). */
    public void reduce(DeviceBuffer send, DeviceBuffer recv, long count, ReductionOp op, int root, HipStream stream) {
        DataType type = prepareOne("reduce", send, count);
        checkRank("root", root);
        send.requireElements("reduce send buffer", count);
        if (rank() == root) {
            CollectiveArguments.present("reduce receive buffer (on the root)", recv);
            CollectiveArguments.sameType("reduce receive buffer", recv, type);
            recv.requireElements("reduce receive buffer", count);
        }
        Rccl.check(ncclReduce(send.pointer(), recv == null ? null : recv.pointer(), count, DataTypes.code(type),
                opFor(op, type), root, handle, stream.handle()), "ncclReduce", handle);
    }

    /** ncclAllGather: rank r's {@code sendCount} elements land at {@code recv[r * sendCount]} on every rank. */
    public void allGather(DeviceBuffer send, DeviceBuffer recv, long sendCount, HipStream stream) {
        DataType type = prepare("allGather", send, recv, sendCount);
        send.requireElements("allGather send buffer", sendCount);
        recv.requireElements("allGather receive buffer", timesSize(sendCount));
        Rccl.check(ncclAllGather(send.pointer(), recv.pointer(), sendCount, DataTypes.code(type), handle, stream.handle()),
                "ncclAllGather", handle);
    }

    /** ncclReduceScatter: block r (of {@code recvCount} elements) of the reduction lands on rank r. */
    public void reduceScatter(DeviceBuffer send, DeviceBuffer recv, long recvCount, ReductionOp op,
                              HipStream stream) {
        DataType type = prepare("reduceScatter", send, recv, recvCount);
        send.requireElements("reduceScatter send buffer", timesSize(recvCount));
        recv.requireElements("reduceScatter receive buffer", recvCount);
        Rccl.check(ncclReduceScatter(send.pointer(), recv.pointer(), recvCount, DataTypes.code(type), opFor(op, type), handle,
                stream.handle()), "ncclReduceScatter", handle);
    }

    /** ncclAllToAll: block j ({@code count} elements) of rank i's send lands as block i of rank j's recv. */
    public void allToAll(DeviceBuffer send, DeviceBuffer recv, long count, HipStream stream) {
        DataType type = prepare("allToAll", send, recv, count);
        send.requireElements("allToAll send buffer", timesSize(count));
        recv.requireElements("allToAll receive buffer", timesSize(count));
        Rccl.check(ncclAllToAll(send.pointer(), recv.pointer(), count, DataTypes.code(type), handle, stream.handle()),
                "ncclAllToAll", handle);
    }

    /**
     * ncclAllToAllv (RCCL only): {@code sendCounts[j]} elements from {@code send[sendDispls[j]]} go to rank j,
     * {@code recvCounts[j]} elements from rank j land at {@code recv[recvDispls[j]]}. Arrays have one entry per
     * rank, in elements; in place when send and recv are the same memory.
     */
    public void allToAllv(DeviceBuffer send, long[] sendCounts, long[] sendDispls, DeviceBuffer recv,
                          long[] recvCounts, long[] recvDispls, HipStream stream) {
        DataType type = prepare("allToAllv", send, recv, 0);
        send.requireElements("allToAllv send buffer", CollectiveArguments.extent("send", sendCounts, sendDispls, size()));
        recv.requireElements("allToAllv receive buffer", CollectiveArguments.extent("receive", recvCounts, recvDispls, size()));
        try (SizeTPointer sc = CollectiveArguments.sizes(sendCounts);
             SizeTPointer sd = CollectiveArguments.sizes(sendDispls);
             SizeTPointer rc = CollectiveArguments.sizes(recvCounts);
             SizeTPointer rd = CollectiveArguments.sizes(recvDispls)) {
            Rccl.check(ncclAllToAllv(send.pointer(), sc, sd, recv.pointer(), rc, rd, DataTypes.code(type), handle,
                    stream.handle()), "ncclAllToAllv", handle);
        }
    }

    /** ncclGather: rank r's {@code sendCount} elements land at root's {@code recv[r * sendCount]} (recv null elsewhere). */
    public void gather(DeviceBuffer send, DeviceBuffer recv, long sendCount, int root, HipStream stream) {
        DataType type = prepareOne("gather", send, sendCount);
        checkRank("root", root);
        send.requireElements("gather send buffer", sendCount);
        if (rank() == root) {
            CollectiveArguments.present("gather receive buffer (on the root)", recv);
            CollectiveArguments.sameType("gather receive buffer", recv, type);
            recv.requireElements("gather receive buffer", timesSize(sendCount));
        }
        Rccl.check(ncclGather(send.pointer(), recv == null ? null : recv.pointer(), sendCount, DataTypes.code(type), root,
                handle, stream.handle()), "ncclGather", handle);
    }

    /** ncclScatter: block r ({@code recvCount} elements) of root's {@code send} lands in rank r's recv (send null elsewhere). */
    public void scatter(DeviceBuffer send, DeviceBuffer recv, long recvCount, int root, HipStream stream) {
        DataType type = prepareOne("scatter", recv, recvCount);
        checkRank("root", root);
        if (rank() == root) {
            CollectiveArguments.present("scatter send buffer (on the root)", send);
            CollectiveArguments.sameType("scatter send buffer", send, type);
            send.requireElements("scatter send buffer", timesSize(recvCount));
        }
        recv.requireElements("scatter receive buffer", recvCount);
        Rccl.check(ncclScatter(send == null ? null : send.pointer(), recv.pointer(), recvCount, DataTypes.code(type), root,
                handle, stream.handle()), "ncclScatter", handle);
    }

    /** ncclSend of {@code count} elements to {@code peer}; pair it with the peer's recv (in a {@link Group} to overlap). */
    public void send(DeviceBuffer buffer, long count, int peer, HipStream stream) {
        DataType type = prepareOne("send", buffer, count);
        checkRank("peer", peer);
        buffer.requireElements("send buffer", count);
        Rccl.check(ncclSend(buffer.pointer(), count, DataTypes.code(type), peer, handle, stream.handle()), "ncclSend", handle);
    }

    /** ncclRecv of {@code count} elements from {@code peer}. */
    public void recv(DeviceBuffer buffer, long count, int peer, HipStream stream) {
        DataType type = prepareOne("recv", buffer, count);
        checkRank("peer", peer);
        buffer.requireElements("receive buffer", count);
        Rccl.check(ncclRecv(buffer.pointer(), count, DataTypes.code(type), peer, handle, stream.handle()), "ncclRecv", handle);
    }

    // ------------------------------------------------------------------ lifecycle (the rest: CommunicatorLifecycle)

    /**
     * Closes communicators that one thread drives together (from {@link #initAll}, or splits of them): they are
     * finalized inside one group, so no rank waits for another that this thread has not reached yet, then
     * destroyed. Failed ones are aborted.
     */
    public static void closeAll(java.util.Collection<Communicator> communicators) {
        List<Communicator> healthy = new ArrayList<>();
        for (Communicator c : communicators) {
            if (c.isClosed()) {
                continue;
            }
            if (c.asyncError() != RcclResult.SUCCESS) {
                c.abort();
            } else if (!c.isFinalized()) {
                healthy.add(c);
            }
        }
        try (Group group = Rccl.group()) {
            for (Communicator c : healthy) {
                c.finalizeCommunicator();
            }
        }
        for (Communicator c : communicators) {
            c.close();
        }
    }


    // ------------------------------------------------------------------ checks

    private DataType prepare(String what, DeviceBuffer send, DeviceBuffer recv, long count) {
        requireOpen();
        return CollectiveArguments.pair(what, send, recv, count);
    }

    private DataType prepareOne(String what, DeviceBuffer buffer, long count) {
        requireOpen();
        return CollectiveArguments.one(what, buffer, count);
    }

    private int opFor(ReductionOp op, DataType type) {
        Objects.requireNonNull(op, "op");
        if (op instanceof PreMulSum custom) {
            if (custom.communicator() != this) {
                throw new IllegalArgumentException(custom + " belongs to another communicator");
            }
            if (custom.type() != type) {
                throw new IllegalArgumentException(custom + " was created for " + custom.type() + ", not " + type);
            }
        }
        return op.code();
    }

    private void checkRank(String what, int value) {
        CollectiveArguments.rank(what, value, size());
    }

    private long timesSize(long count) {
        return CollectiveArguments.timesSize(count, size());
    }

    // ------------------------------------------------------------------ counts from the buffers
    // Both buffers carry their length, so the whole-buffer forms need no count; the forms with a count above are for
    // partial buffers.

    /** {@link #allReduce(DeviceBuffer, DeviceBuffer, long, ReductionOp, HipStream)} of the whole (equal) buffers. */
    public void allReduce(DeviceBuffer send, DeviceBuffer recv, ReductionOp op, HipStream stream) {
        allReduce(send, recv, CollectiveArguments.sameLength("allReduce", send, recv), op, stream);
    }

    /** {@link #broadcast(DeviceBuffer, DeviceBuffer, long, int, HipStream)} of the whole receive buffer. */
    public void broadcast(DeviceBuffer send, DeviceBuffer recv, int root, HipStream stream) {
        broadcast(send, recv, CollectiveArguments.length("broadcast receive buffer", recv), root, stream);
    }

    /** {@link #reduce(DeviceBuffer, DeviceBuffer, long, ReductionOp, int, HipStream)} of the whole send buffer. */
    public void reduce(DeviceBuffer send, DeviceBuffer recv, ReductionOp op, int root, HipStream stream) {
        reduce(send, recv, CollectiveArguments.length("reduce send buffer", send), op, root, stream);
    }

    /** {@link #allGather(DeviceBuffer, DeviceBuffer, long, HipStream)} of the whole send buffer into the whole recv. */
    public void allGather(DeviceBuffer send, DeviceBuffer recv, HipStream stream) {
        long count = CollectiveArguments.length("allGather send buffer", send);
        requireBlocks("allGather", recv, "receive", count);
        allGather(send, recv, count, stream);
    }

    /** {@link #reduceScatter(DeviceBuffer, DeviceBuffer, long, ReductionOp, HipStream)}: one recv's worth per rank. */
    public void reduceScatter(DeviceBuffer send, DeviceBuffer recv, ReductionOp op, HipStream stream) {
        long count = CollectiveArguments.length("reduceScatter receive buffer", recv);
        requireBlocks("reduceScatter", send, "send", count);
        reduceScatter(send, recv, count, op, stream);
    }

    /** {@link #allToAll(DeviceBuffer, DeviceBuffer, long, HipStream)}: the buffers hold one equal block per rank. */
    public void allToAll(DeviceBuffer send, DeviceBuffer recv, HipStream stream) {
        long total = CollectiveArguments.sameLength("allToAll", send, recv);
        if (total % size() != 0) {
            throw new IllegalArgumentException("allToAll: " + total + " elements are not one equal block per rank of "
                    + size() + "; use the form with a count for partial buffers");
        }
        allToAll(send, recv, total / size(), stream);
    }

    /** {@link #send(DeviceBuffer, long, int, HipStream)} of the whole buffer. */
    public void send(DeviceBuffer buffer, int peer, HipStream stream) {
        send(buffer, CollectiveArguments.length("send buffer", buffer), peer, stream);
    }

    /** {@link #recv(DeviceBuffer, long, int, HipStream)} into the whole buffer. */
    public void recv(DeviceBuffer buffer, int peer, HipStream stream) {
        recv(buffer, CollectiveArguments.length("recv buffer", buffer), peer, stream);
    }

    private void requireBlocks(String what, DeviceBuffer buffer, String which, long block) {
        CollectiveArguments.blocks(what, buffer, which, block, size());
    }
}
