package org.rocshmem.api.kernels;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.testsupport.InitializedPe;
import org.rocshmem.api.testing.MultiPe;

/**
 * Every sample kernel's pattern ({@link KernelPatterns}) on 2 and on 4 PEs, each PE in its own JVM. One pattern per
 * job: the emulator loads only one distinct code object per process for now (see the kernel-engine note in the
 * java-kernels report), and a job per pattern also names the failing pattern directly.
 */
@Tag("emu")
class KernelSamplesTest {

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void ringOnTwoPes() {
        KernelPatterns.ring(Rocshmem.current());
    }

    @Test
    @MultiPe(value = 4, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void ringOnFourPes() {
        KernelPatterns.ring(Rocshmem.current());
    }

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void pipelineOnTwoPes() {
        KernelPatterns.pipeline(Rocshmem.current());
    }

    @Test
    @MultiPe(value = 4, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void pipelineOnFourPes() {
        KernelPatterns.pipeline(Rocshmem.current());
    }

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void histogramOnTwoPes() {
        KernelPatterns.histogram(Rocshmem.current());
    }

    @Test
    @MultiPe(value = 4, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void histogramOnFourPes() {
        KernelPatterns.histogram(Rocshmem.current());
    }

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void allreduceOnTwoPes() {
        KernelPatterns.allreduce(Rocshmem.current());
    }

    @Test
    @MultiPe(value = 4, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void allreduceOnFourPes() {
        KernelPatterns.allreduce(Rocshmem.current());
    }

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void streamWithAKernelOnTwoPes() {
        KernelPatterns.streamMix(Rocshmem.current());
    }

    @Test
    @MultiPe(value = 4, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void streamWithAKernelOnFourPes() {
        KernelPatterns.streamMix(Rocshmem.current());
    }
}
