/**
 * RCCL for Java, typed: {@link org.rocshmem.api.rccl.Communicator} (AutoCloseable, created from a unique id, the
 * launcher/mpirun environment or {@link org.rocshmem.api.rccl.Communicator#initAll}), collectives on
 * {@link org.rocshmem.api.hip.DeviceBuffer}s, JavaCPP {@code Pointer}s or {@code SymmetricBuffer}s with element
 * counts checked in Java, {@link org.rocshmem.api.hip.DataType} and {@link org.rocshmem.api.rccl.RedOp} enums,
 * {@code try (Group g = Rccl.group()) { ... }} for groups, and {@link org.rocshmem.api.rccl.RcclException}s that
 * carry the {@code ncclResult_t} name and RCCL's last-error text. Streams are the rocSHMEM API's
 * {@link org.rocshmem.api.hip.HipStream}. The raw bindings are {@code org.rocshmem.global.rccl}.
 */
package org.rocshmem.api.rccl;

import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceBuffer;
