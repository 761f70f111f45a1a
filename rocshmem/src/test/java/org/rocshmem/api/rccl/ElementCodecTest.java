package org.rocshmem.api.rccl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.ElementCodec;

/** The host-side codecs, pinned to the same bit patterns as the CPU RCCL's (native test rccl_codecs). */
class ElementCodecTest {

    @Test
    void sixteenAndEightBitFloats() {
        assertEquals(0x3C00, ElementCodec.bits(DataType.FLOAT16, 1.0));
        assertEquals(0xC000, ElementCodec.bits(DataType.FLOAT16, -2.0));
        assertEquals(0x7BFF, ElementCodec.bits(DataType.FLOAT16, 65504.0));
        assertEquals(0x7C00, ElementCodec.bits(DataType.FLOAT16, 65520.0));
        assertEquals(0x3C00, ElementCodec.bits(DataType.FLOAT16, 1.0 + 1.0 / 2048));
        assertEquals(0x3C02, ElementCodec.bits(DataType.FLOAT16, 1.0 + 3.0 / 2048));
        assertEquals(0x0001, ElementCodec.bits(DataType.FLOAT16, 5.960464477539063e-8));
        assertEquals(0x3F80, ElementCodec.bits(DataType.BFLOAT16, 1.0));
        assertEquals(0x4049, ElementCodec.bits(DataType.BFLOAT16, 3.140625));
        assertEquals(0x3F80, ElementCodec.bits(DataType.BFLOAT16, 1.00390625));
        assertEquals(0x38, ElementCodec.bits(DataType.FLOAT8_E4M3, 1.0));
        assertEquals(0x7E, ElementCodec.bits(DataType.FLOAT8_E4M3, 448.0));
        assertEquals(0x7E, ElementCodec.bits(DataType.FLOAT8_E4M3, 10000.0));
        assertEquals(0x7F, ElementCodec.bits(DataType.FLOAT8_E4M3, Double.NaN));
        assertEquals(0x01, ElementCodec.bits(DataType.FLOAT8_E4M3, Math.scalb(1.0, -9)));
        assertEquals(0x3C, ElementCodec.bits(DataType.FLOAT8_E5M2, 1.0));
        assertEquals(0x7B, ElementCodec.bits(DataType.FLOAT8_E5M2, 57344.0));
        assertEquals(0x7B, ElementCodec.bits(DataType.FLOAT8_E5M2, 1e9));
        assertEquals(0x48, ElementCodec.bits(DataType.FLOAT8_E5M2, 9.0));
    }

    @Test
    void everyTypeRoundTripsSmallIntegers() {
        ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.nativeOrder());
        for (DataType type : DataType.values()) {
            for (int v = 0; v < 8; v++) {
                ElementCodec.put(type, b, 3, v);
                assertEquals(v, ElementCodec.get(type, b, 3), type + " " + v);
            }
        }
        ElementCodec.put(DataType.UINT8, b, 0, 200);
        assertEquals(200, ElementCodec.get(DataType.UINT8, b, 0));
        ElementCodec.put(DataType.UINT64, b, 1, 0x1p63 + 4096);
        assertEquals(0x1p63 + 4096, ElementCodec.get(DataType.UINT64, b, 1));
        ElementCodec.put(DataType.FLOAT8_E5M2, b, 0, 11.0);
        assertEquals(12.0, ElementCodec.get(DataType.FLOAT8_E5M2, b, 0));  // rounded to nearest even
        ElementCodec.put(DataType.FLOAT16, b, 0, 1e6);
        assertTrue(Double.isInfinite(ElementCodec.get(DataType.FLOAT16, b, 0)));
    }
}
