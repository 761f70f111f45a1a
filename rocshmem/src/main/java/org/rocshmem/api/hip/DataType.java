package org.rocshmem.api.hip;

/**
 * The element types of typed device memory ({@link DeviceBuffer}, {@link DeviceMemory}): the types device
 * collectives reduce and move. A library maps them to its own codes (RCCL: {@code ncclDataType_t}).
 */
public enum DataType {
    INT8(1, false),
    UINT8(1, false),
    INT32(4, false),
    UINT32(4, false),
    INT64(8, false),
    UINT64(8, false),
    /** IEEE binary16. */
    FLOAT16(2, true),
    FLOAT32(4, true),
    FLOAT64(8, true),
    BFLOAT16(2, true),
    /** OCP FP8 E4M3 (largest finite 448, no infinities). */
    FLOAT8_E4M3(1, true),
    /** OCP FP8 E5M2. */
    FLOAT8_E5M2(1, true);

    private final int size;
    private final boolean floating;

    DataType(int size, boolean floating) {
        this.size = size;
        this.floating = floating;
    }

    /** Bytes per element. */
    public int size() {
        return size;
    }

    public boolean isFloating() {
        return floating;
    }
}
