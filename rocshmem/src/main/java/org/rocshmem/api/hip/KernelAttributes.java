package org.rocshmem.api.hip;

import org.rocshmem.hip.hipFuncAttributes;

/**
 * What HIP reports about a kernel ({@code hipFuncGetAttributes}), as values: resource use and launch limits.
 *
 * @param maxThreadsPerBlock the largest block this kernel can be launched with
 * @param sharedSizeBytes static shared memory ({@code __shared__}) per block
 * @param maxDynamicSharedSizeBytes the largest dynamic shared memory ({@code extern __shared__}) a launch may ask
 * @param localSizeBytes private (scratch) memory per work-item
 * @param constSizeBytes constant memory
 * @param numRegs registers per work-item
 * @param binaryVersion the code object's target version
 * @param ptxVersion the virtual architecture version
 * @param cacheModeCA the cache mode the kernel was compiled with
 * @param preferredShmemCarveout the preferred shared memory carve-out, in percent (-1: no preference)
 */
public record KernelAttributes(int maxThreadsPerBlock, long sharedSizeBytes, int maxDynamicSharedSizeBytes,
                               long localSizeBytes, long constSizeBytes, int numRegs, int binaryVersion,
                               int ptxVersion, int cacheModeCA, int preferredShmemCarveout) {

    static KernelAttributes of(hipFuncAttributes a) {
        return new KernelAttributes(a.maxThreadsPerBlock(), a.sharedSizeBytes(), a.maxDynamicSharedSizeBytes(),
                a.localSizeBytes(), a.constSizeBytes(), a.numRegs(), a.binaryVersion(), a.ptxVersion(),
                a.cacheModeCA(), a.preferredShmemCarveout());
    }
}
