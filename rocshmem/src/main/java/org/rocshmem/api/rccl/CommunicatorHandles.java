package org.rocshmem.api.rccl;

import static org.rocshmem.global.rccl.*;

import java.util.ArrayList;
import java.util.List;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;
import org.rocshmem.rccl.ncclComm;
import org.rocshmem.rccl.ncclConfig_t;
import org.rocshmem.rccl.ncclUniqueId;

/** The native calls that make communicators; {@link Communicator} checks the arguments and wraps the handles. */
final class CommunicatorHandles {
    private CommunicatorHandles() {
    }

    /** ncclCommInitRankConfig ({@code config} may be null). */
    static ncclComm initRank(int nranks, UniqueId id, int rank, Config config) {
        Rccl.load();
        ncclComm comm = new ncclComm();
        List<Pointer> keepAlive = new ArrayList<>();
        try (ncclUniqueId nativeId = id.toNative()) {
            ncclConfig_t nativeConfig = config == null ? null : config.toNative(keepAlive);
            Rccl.check(ncclCommInitRankConfig(comm, nranks, nativeId, rank, nativeConfig),
                    "ncclCommInitRankConfig(rank=" + rank + ", nranks=" + nranks + ")", null);
        } finally {
            keepAlive.forEach(Pointer::close);
        }
        return comm;
    }

    /** ncclCommInitAll on {@code devices} (null: 0..ndev-1), in rank order. */
    static List<ncclComm> initAll(int[] devices, int ndev) {
        Rccl.load();
        try (PointerPointer<ncclComm> comms = new PointerPointer<>(ndev);
             IntPointer devlist = devices == null ? null : new IntPointer(devices)) {
            Rccl.check(ncclCommInitAll(comms, ndev, devlist), "ncclCommInitAll(ndev=" + ndev + ")", null);
            List<ncclComm> all = new ArrayList<>(ndev);
            for (int i = 0; i < ndev; i++) {
                all.add(comms.get(ncclComm.class, i));
            }
            return all;
        }
    }

    /** ncclCommSplit: the new handle, null inside (isNull()) for NO_COLOR. */
    static ncclComm split(ncclComm parent, int color, int key, Config config) {
        ncclComm created = new ncclComm();
        List<Pointer> keepAlive = new ArrayList<>();
        try {
            ncclConfig_t nativeConfig = config == null ? null : config.toNative(keepAlive);
            Rccl.check(ncclCommSplit(parent, color, key, created, nativeConfig), "ncclCommSplit(color=" + color
                    + ", key=" + key + ")", parent);
        } finally {
            keepAlive.forEach(Pointer::close);
        }
        return created;
    }

    /** ncclCommShrink without {@code excludedRanks}. */
    static ncclComm shrink(ncclComm parent, boolean abortOngoing, int[] excludedRanks) {
        ncclComm created = new ncclComm();
        try (IntPointer list = new IntPointer(Math.max(1, excludedRanks.length))) {
            list.put(excludedRanks);
            Rccl.check(ncclCommShrink(parent, list, excludedRanks.length, created, null,
                    abortOngoing ? NCCL_SHRINK_ABORT : NCCL_SHRINK_DEFAULT), "ncclCommShrink", parent);
        }
        return created;
    }
}
