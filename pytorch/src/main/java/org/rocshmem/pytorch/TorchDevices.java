package org.rocshmem.pytorch;

import static org.bytedeco.pytorch.global.torch.cuda_is_available;
import static org.bytedeco.pytorch.global.torch.hasHIP;

import org.bytedeco.pytorch.Device;
import org.bytedeco.pytorch.global.torch.DeviceType;
import org.rocshmem.api.Backend;
import org.rocshmem.global.hip;

/**
 * The torch device of symmetric memory. On the emulator emulated device memory is host memory, so symmetric tensors
 * are CPU tensors. On a GPU they live on the current HIP device, which a ROCm build of libtorch calls "cuda"; the
 * libtorch that bytedeco's pytorch ships is a CPU (and CUDA) build, so on a GPU the module refuses to make tensors
 * unless the loaded libtorch reports HIP support.
 */
final class TorchDevices {
    private TorchDevices() {
    }

    static Device forSymmetricMemory(Backend backend) {
        if (backend.emulator()) {
            return new Device(DeviceType.CPU);
        }
        if (!hasHIP() || !cuda_is_available()) {
            throw new UnsupportedOperationException("symmetric memory is device memory of the HIP device on "
                    + backend + ", but the loaded libtorch has no ROCm support (hasHIP() is false): bytedeco's"
                    + " org.bytedeco:pytorch ships CPU and CUDA builds only. Build libtorch for ROCm and load it"
                    + " through the same preset (docs/pytorch.md), or use the emulator");
        }
        int[] device = new int[1];
        int status = hip.hipGetDevice(device);
        if (status != 0) {
            throw new IllegalStateException("hipGetDevice failed with HIP error " + status);
        }
        return new Device(DeviceType.CUDA, (byte) device[0]);
    }
}
