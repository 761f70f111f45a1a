package org.rocshmem.api.rccl;

/** A reduction operator: one of the built-in {@link RedOp}s, or a {@link PreMulSum} made on a communicator. */
public sealed interface ReductionOp permits RedOp, PreMulSum {
    /** The {@code ncclRedOp_t} value. */
    int code();
}
