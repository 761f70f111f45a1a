package org.rocshmem.api.kernels;

import org.rocshmem.api.hip.Dim3;
import org.rocshmem.api.hip.HipModule;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;

/** A PE of {@link KernelFaultTest}: the last PE launches a kernel that dereferences null; the others wait for it. */
public final class FaultingKernelPe {
    public static void main(String[] args) {
        try (Rocshmem shmem = Rocshmem.init();
             HipModule module = HipModule.loadResource("kernels/probes");
             SymmetricBuffer out = shmem.calloc(4, Integer.BYTES);
             HipStream stream = HipStream.create()) {
            shmem.barrierAll();
            if (shmem.myPe() == shmem.nPes() - 1) {
                module.kernel("faulting").launch(Dim3.of(2), Dim3.of(64), 0, stream, out.asInts());
                stream.synchronize();
                System.out.println("STALE the faulting kernel returned");
            }
            shmem.barrierAll();
            System.out.println("STALE PE " + shmem.myPe() + " passed the barrier after the fault");
        }
    }
}
