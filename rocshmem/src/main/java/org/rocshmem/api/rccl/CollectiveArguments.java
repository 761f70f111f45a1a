package org.rocshmem.api.rccl;

import org.bytedeco.javacpp.SizeTPointer;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceBuffer;

/**
 * The argument checks every collective of a {@link Communicator} shares, before anything reaches RCCL. Messages
 * name the collective and the buffer; none of these allocates or formats unless it throws.
 */
final class CollectiveArguments {
    private CollectiveArguments() {
    }

    /** A send and a receive buffer of one element type, and a count >= 0: the type they move. */
    static DataType pair(String what, DeviceBuffer send, DeviceBuffer recv, long count) {
        present(what + " send buffer", send);
        DataType type = one(what, recv, count);
        sameType(what + " send buffer", send, type);
        return type;
    }

    /** One buffer and a count >= 0: the type it holds. */
    static DataType one(String what, DeviceBuffer buffer, long count) {
        present(what + " buffer", buffer);
        if (count < 0) {
            throw new IllegalArgumentException(what + ": count must be >= 0, got " + count);
        }
        return buffer.type();
    }

    static void present(String what, DeviceBuffer buffer) {
        if (buffer == null) {
            throw new IllegalArgumentException(what + " is null");
        }
    }

    static void sameType(String what, DeviceBuffer buffer, DataType type) {
        if (buffer.type() != type) {
            throw new IllegalArgumentException(what + " holds " + buffer.type() + " but the operation moves " + type);
        }
    }

    /** A root, peer or excluded rank of a communicator of {@code size} ranks. */
    static void rank(String what, int value, int size) {
        if (value < 0 || value >= size) {
            throw new IndexOutOfBoundsException(what + " " + value + " is outside [0, size=" + size + ")");
        }
    }

    /** One block per rank. */
    static long timesSize(long count, int size) {
        try {
            return Math.multiplyExact(count, size);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("count " + count + " x " + size + " ranks overflows", e);
        }
    }

    /** The elements allToAllv reaches in one buffer: the largest count + displacement. */
    static long extent(String what, long[] counts, long[] displs, int size) {
        if (counts == null || displs == null || counts.length != size || displs.length != size) {
            throw new IllegalArgumentException("allToAllv " + what + " counts and displacements need one entry per"
                    + " rank (" + size + ")");
        }
        long extent = 0;
        for (int r = 0; r < counts.length; r++) {
            if (counts[r] < 0 || displs[r] < 0) {
                throw new IllegalArgumentException("allToAllv " + what + " count/displacement of rank " + r
                        + " is negative");
            }
            if (counts[r] > Long.MAX_VALUE - displs[r]) {
                throw new IllegalArgumentException("allToAllv " + what + " count " + counts[r] + " + displacement "
                        + displs[r] + " of rank " + r + " exceeds the largest element index, " + Long.MAX_VALUE);
            }
            extent = Math.max(extent, counts[r] + displs[r]);
        }
        return extent;
    }

    static SizeTPointer sizes(long[] values) {
        SizeTPointer p = new SizeTPointer(values.length);
        for (int i = 0; i < values.length; i++) {
            p.put(i, values[i]);
        }
        return p;
    }

    // ---------------------------------------------------------------- counts from the buffers

    /** The element count of a whole buffer, which must know it. */
    static long length(String what, DeviceBuffer buffer) {
        if (buffer == null) {
            throw new IllegalArgumentException(what + " is null");
        }
        if (buffer.elements() == DeviceBuffer.UNKNOWN_LENGTH) {
            throw new IllegalArgumentException(what + " " + buffer + " has no known length; pass the count");
        }
        return buffer.elements();
    }

    static long sameLength(String what, DeviceBuffer send, DeviceBuffer recv) {
        long count = length(what + " send buffer", send);
        if (length(what + " receive buffer", recv) != count) {
            throw new IllegalArgumentException(what + ": the send buffer has " + count + " elements, the receive"
                    + " buffer " + recv.elements() + "; use the form with a count for partial buffers");
        }
        return count;
    }

    /** A buffer of exactly one block of {@code block} elements per rank. */
    static void blocks(String what, DeviceBuffer buffer, String which, long block, int size) {
        long expected = block * size;
        if (length(what + " " + which + " buffer", buffer) != expected) {
            throw new IllegalArgumentException(what + ": the " + which + " buffer must hold " + size + " blocks of "
                    + block + " elements (" + expected + "), it has " + buffer.elements()
                    + "; use the form with a count for partial buffers");
        }
    }
}
