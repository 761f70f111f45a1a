/**
 * Building kernels for {@link org.rocshmem.api.hip.HipModule}: {@link org.rocshmem.api.kernel.KernelCompiler} turns a
 * project's {@code .hip} sources into the CPU emulator's code objects ({@code .emuco}, always) and GPU code objects
 * ({@code .hsaco}, when ROCm's hipcc is present), ready to be packaged as class-path resources.
 */
package org.rocshmem.api.kernel;
