package org.rocshmem.api.hip;

import static org.rocshmem.global.hip.hipGetDeviceCount;
import static org.rocshmem.global.hip.hipSetDevice;

import java.util.Map;

/**
 * Pins this process to its GPU before rocSHMEM initializes (one PE per GPU): device = LOCAL_RANK, falling back to
 * OMPI_COMM_WORLD_LOCAL_RANK (as rocshmem4py does), then SLURM_LOCALID. With more local ranks than devices
 * (typical on the emulator, which has one virtual device unless ROCSHMEM_EMU_DEVICES says otherwise) ranks share
 * devices round-robin.
 * Public because RCCL communicators ({@code org.rocshmem.api.rccl}) pin the device the same way.
 */
public final class DeviceSelection {
    private static final System.Logger LOG = System.getLogger(DeviceSelection.class.getName());

    private DeviceSelection() {
    }

    /** Returns the device chosen, or -1 when no local rank is known (then the current device stays). */
    public static int fromEnvironment(Map<String, String> env, boolean emulator) {
        String text = env.getOrDefault("LOCAL_RANK", env.getOrDefault("OMPI_COMM_WORLD_LOCAL_RANK",
                env.get("SLURM_LOCALID")));
        if (text == null || text.isBlank()) {
            return -1;
        }
        int localRank;
        try {
            localRank = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("LOCAL_RANK=" + text + " is not an integer", e);
        }
        int[] count = {0};
        HipException.check(hipGetDeviceCount(count), "hipGetDeviceCount");
        int device = localRank % count[0];
        if (device != localRank) {
            LOG.log(emulator ? System.Logger.Level.DEBUG : System.Logger.Level.WARNING,
                    "LOCAL_RANK {0} but only {1} HIP device(s): using device {2}", localRank, count[0], device);
        }
        HipException.check(hipSetDevice(device), "hipSetDevice(" + device + ")");
        return device;
    }
}
