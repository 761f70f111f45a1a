/**
 * DLPack, the tensor exchange format behind {@code __dlpack__} (PyTorch, JAX, CuPy, NumPy and C++ code of one's
 * own), without a dependency on any framework: {@link org.rocshmem.api.dlpack.Dlpack} exports symmetric views and
 * buffers, device buffers and registered buffers as {@code DLManagedTensor} or {@code DLManagedTensorVersioned}
 * (kDLROCM on a GPU, kDLCPU on the emulator), and imports a producer's tensor as local memory for
 * {@code putmem}/{@code getmem} and kernel arguments.
 *
 * <p>The structs ({@link org.rocshmem.api.dlpack.DLTensor}, {@link org.rocshmem.api.dlpack.DLManagedTensor},
 * {@link org.rocshmem.api.dlpack.DLManagedTensorVersioned}) are JavaCPP pointers written by hand from the
 * specification's field names, order and enum values, read and written at their offsets: they need no JNI code, so
 * the package is the same in every native variant. An export's deleter is the C library's {@code free} of the
 * export's own block (struct, shape, strides), so a consumer that calls it never frees the memory described.
 */
package org.rocshmem.api.dlpack;
