package org.rocshmem.api.hip;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads and writes elements of any {@link DataType} as doubles in host memory (a staging buffer, or memory the
 * CPU emulator exposes directly). Java has no 16- or 8-bit floats: FLOAT16 is IEEE binary16, BFLOAT16 the top
 * half of a float, FLOAT8_E4M3/E5M2 the OCP FP8 formats; conversions round to nearest even, FP8 overflow
 * saturates to the largest finite value, binary16 and bfloat16 overflow to infinity. Integers are converted as
 * by a Java cast. Element {@code index} is at byte {@code index * type.size()}; native byte order is used.
 */
public final class ElementCodec {
    private record Format(int exponentBits, int mantissaBits, boolean hasInfinity, boolean saturate) {
        int bias() {
            return (1 << (exponentBits - 1)) - 1;
        }

        int bits() {
            return 1 + exponentBits + mantissaBits;
        }

        int maxFinite() {
            int allExp = (1 << exponentBits) - 1;
            int allMan = (1 << mantissaBits) - 1;
            return hasInfinity ? ((allExp - 1) << mantissaBits) | allMan : (allExp << mantissaBits) | (allMan - 1);
        }

        int nan() {
            int allExp = (1 << exponentBits) - 1;
            return hasInfinity ? (allExp << mantissaBits) | (1 << (mantissaBits - 1))
                    : (allExp << mantissaBits) | ((1 << mantissaBits) - 1);
        }
    }

    private static final Format HALF = new Format(5, 10, true, false);
    private static final Format BFLOAT16 = new Format(8, 7, true, false);
    private static final Format E4M3 = new Format(4, 3, false, true);
    private static final Format E5M2 = new Format(5, 2, true, true);

    private ElementCodec() {
    }

    public static void put(DataType type, ByteBuffer buffer, int index, double value) {
        ByteBuffer b = buffer.duplicate().order(ByteOrder.nativeOrder());
        int at = index * type.size();
        switch (type) {
            case INT8, UINT8 -> b.put(at, (byte) (long) value);
            case INT32 -> b.putInt(at, (int) value);
            case UINT32 -> b.putInt(at, (int) (long) value);
            case INT64 -> b.putLong(at, (long) value);
            case UINT64 -> b.putLong(at, value >= 0x1p63 ? (long) (value - 0x1p63) ^ Long.MIN_VALUE : (long) value);
            case FLOAT16 -> b.putShort(at, (short) encode(HALF, value));
            case FLOAT32 -> b.putFloat(at, (float) value);
            case FLOAT64 -> b.putDouble(at, value);
            case BFLOAT16 -> b.putShort(at, (short) encode(BFLOAT16, value));
            case FLOAT8_E4M3 -> b.put(at, (byte) encode(E4M3, value));
            case FLOAT8_E5M2 -> b.put(at, (byte) encode(E5M2, value));
        }
    }

    public static double get(DataType type, ByteBuffer buffer, int index) {
        ByteBuffer b = buffer.duplicate().order(ByteOrder.nativeOrder());
        int at = index * type.size();
        return switch (type) {
            case INT8 -> b.get(at);
            case UINT8 -> b.get(at) & 0xff;
            case INT32 -> b.getInt(at);
            case UINT32 -> b.getInt(at) & 0xffffffffL;
            case INT64 -> b.getLong(at);
            case UINT64 -> {
                long v = b.getLong(at);
                yield v >= 0 ? v : (double) (v & Long.MAX_VALUE) + 0x1p63;
            }
            case FLOAT16 -> decode(HALF, b.getShort(at) & 0xffff);
            case FLOAT32 -> b.getFloat(at);
            case FLOAT64 -> b.getDouble(at);
            case BFLOAT16 -> decode(BFLOAT16, b.getShort(at) & 0xffff);
            case FLOAT8_E4M3 -> decode(E4M3, b.get(at) & 0xff);
            case FLOAT8_E5M2 -> decode(E5M2, b.get(at) & 0xff);
        };
    }

    /** The bit pattern of {@code value} in a 16- or 8-bit float type (for tests and raw memory). */
    public static int bits(DataType type, double value) {
        return switch (type) {
            case FLOAT16 -> encode(HALF, value);
            case BFLOAT16 -> encode(BFLOAT16, value);
            case FLOAT8_E4M3 -> encode(E4M3, value);
            case FLOAT8_E5M2 -> encode(E5M2, value);
            default -> throw new IllegalArgumentException(type + " is not a 16- or 8-bit float type");
        };
    }

    private static int encode(Format f, double v) {
        int sign = (Double.doubleToRawLongBits(v) < 0) ? 1 << (f.bits() - 1) : 0;
        if (Double.isNaN(v)) {
            return sign | f.nan();
        }
        double a = Math.abs(v);
        int overflow = f.saturate() || !f.hasInfinity() ? f.maxFinite()
                : ((1 << f.exponentBits()) - 1) << f.mantissaBits();
        if (Double.isInfinite(a)) {
            return sign | overflow;
        }
        if (a == 0) {
            return sign;
        }
        int m = f.mantissaBits();
        int minNormalExponent = 1 - f.bias();
        int unbiased = Math.getExponent(a);  // a = 1.x * 2^unbiased (subnormal doubles never reach here in practice)
        long bits;
        if (unbiased < minNormalExponent) {
            bits = (long) Math.rint(Math.scalb(a, m - minNormalExponent));
        } else {
            double significand = Math.rint(Math.scalb(a, m - unbiased));
            if (significand >= Math.scalb(1.0, m + 1)) {
                significand = Math.scalb(1.0, m);
                unbiased++;
            }
            bits = ((long) (unbiased + f.bias()) << m) | ((long) significand - (1L << m));
        }
        return bits > f.maxFinite() ? sign | overflow : sign | (int) bits;
    }

    private static double decode(Format f, int bits) {
        int m = f.mantissaBits();
        int sign = (bits >>> (f.bits() - 1)) & 1;
        int field = (bits >>> m) & ((1 << f.exponentBits()) - 1);
        int mantissa = bits & ((1 << m) - 1);
        int allExp = (1 << f.exponentBits()) - 1;
        double value;
        if (f.hasInfinity() && field == allExp) {
            value = mantissa == 0 ? Double.POSITIVE_INFINITY : Double.NaN;
        } else if (!f.hasInfinity() && field == allExp && mantissa == (1 << m) - 1) {
            value = Double.NaN;
        } else if (field == 0) {
            value = Math.scalb((double) mantissa, 1 - f.bias() - m);
        } else {
            value = Math.scalb((double) (mantissa | (1 << m)), field - f.bias() - m);
        }
        return sign == 1 ? -value : value;
    }
}
