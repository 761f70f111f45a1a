package org.rocshmem.api.launch;

import org.rocshmem.api.hip.Dim3;
import org.rocshmem.api.hip.HipModule;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;

/**
 * A PE of {@link KernelFaultEndsJobTest}: the last PE prints the wall-clock time and launches a kernel that
 * dereferences null; the others wait in a barrier.
 */
public final class FaultingKernelTimedPe {
    private FaultingKernelTimedPe() {
    }

    public static void main(String[] args) {
        try (Rocshmem shmem = Rocshmem.init();
             HipModule module = HipModule.loadResource("kernels/probes");
             SymmetricBuffer out = shmem.calloc(4, Integer.BYTES);
             HipStream stream = HipStream.create()) {
            shmem.barrierAll();
            if (shmem.myPe() == shmem.nPes() - 1) {
                System.out.println("faulting at " + System.currentTimeMillis());
                System.out.flush();
                module.kernel("faulting").launch(Dim3.of(2), Dim3.of(64), 0, stream, out.asInts());
                stream.synchronize();
            }
            shmem.barrierAll();
            System.out.println("STALE PE " + shmem.myPe() + " passed the barrier after the fault");
        }
    }
}
