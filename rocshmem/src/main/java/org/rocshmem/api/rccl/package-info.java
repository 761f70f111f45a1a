/**
 * RCCL for Java, typed: {@link org.rocshmem.api.rccl.Communicator} (AutoCloseable, created from a unique id, the
 * launcher/mpirun environment or {@link org.rocshmem.api.rccl.Communicator#initAll}), collectives on
 * {@link org.rocshmem.api.rccl.DeviceBuffer}s, JavaCPP {@code Pointer}s or {@code SymmetricBuffer}s with element
 * counts checked in Java, {@link org.rocshmem.api.rccl.DataType} and {@link org.rocshmem.api.rccl.RedOp} enums,
 * {@code try (Group g = Rccl.group()) { ... }} for groups, and {@link org.rocshmem.api.rccl.RcclException}s that
 * carry the {@code ncclResult_t} name and RCCL's last-error text. Streams are the rocSHMEM API's
 * {@link org.rocshmem.api.HipStream}. The raw bindings are {@code org.rocshmem.global.rccl}.
 */
package org.rocshmem.api.rccl;
