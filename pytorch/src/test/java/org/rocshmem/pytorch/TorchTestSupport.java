package org.rocshmem.pytorch;

import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.pytorch.Tensor;

/** Reads and writes CPU tensors element by element, so the tests compare exact values. */
final class TorchTestSupport {
    private TorchTestSupport() {
    }

    static long[] longs(Tensor t) {
        long[] values = new long[(int) t.numel()];
        new LongPointer(t.data_ptr()).capacity(values.length).get(values);
        return values;
    }

    static float[] floats(Tensor t) {
        float[] values = new float[(int) t.numel()];
        new FloatPointer(t.data_ptr()).capacity(values.length).get(values);
        return values;
    }

    static long[] longsOf(byte[] bytes) {
        long[] values = new long[bytes.length / Long.BYTES];
        java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.nativeOrder()).asLongBuffer().get(values);
        return values;
    }

    static void set(Tensor t, long[] values) {
        new LongPointer(t.data_ptr()).capacity(values.length).put(values);
    }

    /** PE- and index-stamped values: a block from the wrong PE or offset shows. */
    static long[] stamp(int pe, int n, int salt) {
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = pe * 1_000_000L + salt * 1_000L + i;
        }
        return values;
    }
}
