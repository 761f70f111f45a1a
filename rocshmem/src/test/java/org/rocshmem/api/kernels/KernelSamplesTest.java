package org.rocshmem.api.kernels;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.core.InitializedPe;
import org.rocshmem.api.testing.MultiPe;

/** Every sample kernel's pattern ({@link KernelPatterns}) on 2 and on 4 PEs, each PE in its own JVM. */
@Tag("emu")
class KernelSamplesTest {

    private static void all() {
        Rocshmem shmem = Rocshmem.current();
        KernelPatterns.ring(shmem);
        KernelPatterns.pipeline(shmem);
        KernelPatterns.histogram(shmem);
        KernelPatterns.allreduce(shmem);
        KernelPatterns.streamMix(shmem);
    }

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 180)
    void everySamplePatternOnTwoPes() {
        all();
    }

    @Test
    @MultiPe(value = 4, lifecycle = InitializedPe.class, timeoutSeconds = 240)
    void everySamplePatternOnFourPes() {
        all();
    }
}
