package org.rocshmem.api.rccl;

import static org.rocshmem.global.rccl.ncclRedOpDestroy;
import org.rocshmem.api.hip.DataType;

/**
 * A pre-multiplied sum ({@code ncclRedOpCreatePreMulSum}): every rank multiplies its input by its own scalar,
 * then the products are summed. Valid for the communicator and element type it was created for;
 * {@link #close()} destroys it ({@code ncclRedOpDestroy}). Create it with {@link Communicator#createPreMulSum}.
 */
public final class PreMulSum implements ReductionOp, AutoCloseable {
    private final Communicator communicator;
    private final int code;
    private final DataType type;
    private boolean closed;

    PreMulSum(Communicator communicator, int code, DataType type) {
        this.communicator = communicator;
        this.code = code;
        this.type = type;
    }

    @Override
    public int code() {
        if (closed) {
            throw new IllegalStateException(this + " was destroyed");
        }
        return code;
    }

    /** The element type the operator was created for (collectives with another type are refused). */
    public DataType type() {
        return type;
    }

    Communicator communicator() {
        return communicator;
    }

    /** ncclRedOpDestroy (idempotent; a closed communicator already released it). */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!communicator.isClosed()) {
            Rccl.check(ncclRedOpDestroy(code, communicator.handle()), "ncclRedOpDestroy", communicator.handle());
        }
    }

    @Override
    public String toString() {
        return "PreMulSum[op " + code + ", " + type + (closed ? ", destroyed" : "") + "]";
    }
}
