package org.rocshmem.api;

import static org.rocshmem.global.hip.hipMemcpy;
import static org.rocshmem.global.hip.hipMemcpyDeviceToHost;
import static org.rocshmem.global.hip.hipMemcpyHostToDevice;

import org.bytedeco.javacpp.Pointer;

/** hipMemcpy between host staging memory and symmetric (device) memory; synchronous, like rocshmem4py's tests. */
final class HostCopy {
    private HostCopy() {
    }

    static void toBuffer(Pointer bufferAddress, Pointer hostSource, long bytes) {
        if (bytes > 0) {
            Hip.check(hipMemcpy(bufferAddress, hostSource, bytes, hipMemcpyHostToDevice), "hipMemcpy(H2D)");
        }
    }

    static void toHost(Pointer hostDestination, Pointer bufferAddress, long bytes) {
        if (bytes > 0) {
            Hip.check(hipMemcpy(hostDestination, bufferAddress, bytes, hipMemcpyDeviceToHost), "hipMemcpy(D2H)");
        }
    }
}
