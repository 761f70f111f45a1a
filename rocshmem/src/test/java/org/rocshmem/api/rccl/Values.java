package org.rocshmem.api.rccl;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.ElementCodec;

/**
 * Test data whose every partial result is exactly representable in every data type (FP8 included), so expected
 * results are exact: reduction inputs are 1 or 2, copied data small integers.
 */
final class Values {
    private Values() {
    }

    /** A reduction input of rank r at index i. */
    static double v(int r, long i) {
        return 1 + (i + r) % 2;
    }

    /** Data for the copying collectives: distinct per rank and index, in [0, 8). */
    static double w(int r, long i) {
        return (r + i) % 8;
    }

    /** The PreMulSum scalar of rank r. */
    static double scalar(int r) {
        return r % 2 == 1 ? 2 : 1;
    }

    enum Op { SUM, PROD, MAX, MIN, AVG, PREMUL_HOST, PREMUL_DEVICE }

    static double expectedReduction(Op op, DataType type, int n, long k) {
        double acc = 0;
        for (int r = 0; r < n; r++) {
            double c = v(r, k);
            if (op == Op.PREMUL_HOST || op == Op.PREMUL_DEVICE) {
                c *= scalar(r);
            }
            if (op == Op.AVG && type.isFloating()) {
                c /= n;
            }
            if (r == 0) {
                acc = c;
                continue;
            }
            acc = switch (op) {
                case PROD -> acc * c;
                case MAX -> Math.max(acc, c);
                case MIN -> Math.min(acc, c);
                default -> acc + c;
            };
        }
        if (op == Op.AVG && !type.isFloating()) {
            acc = (long) (acc / n);
        }
        return acc;
    }

    /** {@code x} rounded to {@code type} (the last step of a reduction rounds). */
    static double rounded(DataType type, double x) {
        ByteBuffer cell = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
        ElementCodec.put(type, cell, 0, x);
        return ElementCodec.get(type, cell, 0);
    }

    static double[] fill(long count, java.util.function.LongToDoubleFunction f) {
        double[] values = new double[(int) count];
        for (int i = 0; i < values.length; i++) {
            values[i] = f.applyAsDouble(i);
        }
        return values;
    }
}
