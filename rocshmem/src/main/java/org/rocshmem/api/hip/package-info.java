/**
 * HIP for Java, the floor under rocSHMEM ({@code org.rocshmem.api}) and RCCL ({@code org.rocshmem.api.rccl}):
 * {@link org.rocshmem.api.hip.HipStream} and {@link org.rocshmem.api.hip.HipEvent}, code objects and their kernels
 * ({@link org.rocshmem.api.hip.HipModule}, {@link org.rocshmem.api.hip.Kernel}, {@link org.rocshmem.api.hip.Dim3},
 * {@link org.rocshmem.api.hip.KernelAttributes}, {@link org.rocshmem.api.hip.CodeObjectHeader}), device memory
 * ({@link org.rocshmem.api.hip.DeviceMemory}, {@link org.rocshmem.api.hip.DeviceBuffer},
 * {@link org.rocshmem.api.hip.DataType}), device selection and {@link org.rocshmem.api.hip.HipException}.
 *
 * <p>It imports neither library (a build test, PackageLayeringTest, checks it): a stream or a module never calls
 * back into the library that uses it, and what the libraries hand each other goes through
 * {@link org.rocshmem.api.hip.DeviceRegion}, memory with a device address and an extent. Symmetric views and
 * buffers, registered buffers, peer-address tables, device buffers and allocations are regions; a kernel argument,
 * an RCCL buffer and a stream copy take any of them.
 */
package org.rocshmem.api.hip;
