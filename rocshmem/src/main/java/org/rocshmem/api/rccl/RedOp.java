package org.rocshmem.api.rccl;

import static org.rocshmem.global.rccl.*;

/** The built-in {@code ncclRedOp_t} operators. For the pre-multiplied sum see {@link Communicator#createPreMulSum}. */
public enum RedOp implements ReductionOp {
    SUM(ncclSum),
    PROD(ncclProd),
    MAX(ncclMax),
    MIN(ncclMin),
    /** The sum divided by the number of ranks (RCCL premultiplies floats by 1/n; integers divide the sum). */
    AVG(ncclAvg);

    private final int code;

    RedOp(int code) {
        this.code = code;
    }

    @Override
    public int code() {
        return code;
    }
}
