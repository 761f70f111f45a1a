package org.rocshmem.api.hip;

/**
 * Memory a device can address: where it starts and how many bytes it spans. Symmetric views and buffers, device
 * buffers and allocations, registered buffers and peer-address tables all are one, so a kernel argument, an RCCL
 * buffer ({@link DeviceBuffer#of(DeviceRegion, DataType)}) and a stream copy ({@link HipStream#copy(DeviceRegion,
 * DeviceRegion)}) take any of them without knowing which library made it.
 */
public interface DeviceRegion {
    /**
     * The device address of the first byte (for symmetric memory: this PE's copy, the address device code passes to
     * rocSHMEM). A closed region throws an IllegalStateException (rocSHMEM memory: its RocshmemStateException).
     */
    long address();

    /** The extent in bytes, or -1 when it is not known (a {@link DeviceBuffer} made from a bare pointer). */
    long byteSize();
}
