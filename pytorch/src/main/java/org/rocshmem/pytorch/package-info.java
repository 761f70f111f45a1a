/**
 * Symmetric PyTorch tensors on bytedeco's {@code org.bytedeco:pytorch}: the Java counterpart of rocshmem4py's
 * {@code interop.torch} ({@link org.rocshmem.pytorch.TorchShmem}, {@link org.rocshmem.pytorch.SymmetricTensor}),
 * DLPack between torch and everything else ({@link org.rocshmem.pytorch.TorchDlpack}) and rocSHMEM init through
 * torch's distributed store ({@link org.rocshmem.pytorch.TorchBootstrap}). See docs/pytorch.md.
 */
package org.rocshmem.pytorch;
