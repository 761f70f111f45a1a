package org.rocshmem.api.rccl;

import static org.rocshmem.global.hip.hipSetDevice;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rocshmem.api.hip.HipException;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceMemory;

/**
 * One process, four virtual devices (ROCSHMEM_EMU_DEVICES=4), one thread driving every rank with groups: init,
 * all-reduce, split and close. Run by {@link InitAllTest}; prints "initAll ok" and exits 0 when all checks hold.
 */
public final class InitAllProgram {
    private InitAllProgram() {
    }

    public static void main(String[] args) {
        List<Communicator> comms = Communicator.initAll(4);
        List<HipStream> streams = new ArrayList<>();
        List<DeviceMemory> data = new ArrayList<>();
        for (int r = 0; r < 4; r++) {
            HipException.check(hipSetDevice(r), "hipSetDevice");
            streams.add(HipStream.create());
            data.add(DeviceMemory.allocate(3, DataType.FLOAT32));
            data.get(r).copyFromHost(r, 10 * r, 100 * r);
            require(comms.get(r).rank() == r && comms.get(r).device() == r && comms.get(r).size() == 4, "ranks");
        }
        try (Group group = Rccl.group()) {
            for (int r = 0; r < 4; r++) {
                comms.get(r).allReduce(data.get(r).buffer(), data.get(r).buffer(), 3, RedOp.SUM, streams.get(r));
            }
        }
        streams.forEach(HipStream::synchronize);
        for (int r = 0; r < 4; r++) {
            double[] got = data.get(r).copyToHost();
            require(got[0] == 6 && got[1] == 60 && got[2] == 600, "allReduce on rank " + r);
        }

        // Splits inside a group: usable once it closes.
        List<Communicator> halves = new ArrayList<>();
        try (Group group = Rccl.group()) {
            for (int r = 0; r < 4; r++) {
                Optional<Communicator> half = comms.get(r).split(r % 2, r);
                halves.add(half.orElseThrow());
            }
        }
        try (Group group = Rccl.group()) {
            for (int r = 0; r < 4; r++) {
                halves.get(r).allReduce(data.get(r).buffer(), data.get(r).buffer(), 1, RedOp.MAX, streams.get(r));
            }
        }
        streams.forEach(HipStream::synchronize);
        for (int r = 0; r < 4; r++) {
            require(halves.get(r).size() == 2 && halves.get(r).rank() == r / 2, "split shape of rank " + r);
            require(data.get(r).copyToHost()[0] == 6, "split allReduce on rank " + r);
        }

        // Closing is collective: finalized together in one group, then destroyed.
        Communicator.closeAll(halves);
        Communicator.closeAll(comms);
        data.forEach(DeviceMemory::close);
        streams.forEach(HipStream::close);
        System.out.println("initAll ok: 4 ranks in one process, allReduce, split and closeAll verified");
    }

    private static void require(boolean condition, String what) {
        if (!condition) {
            System.out.println("initAll FAILED: " + what);
            System.exit(1);
        }
    }
}
