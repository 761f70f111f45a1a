package org.rocshmem.pytorch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.bytedeco.pytorch.global.torch;
import org.bytedeco.pytorch.global.torch.ScalarType;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.Backend;
import org.rocshmem.api.dlpack.DLDataType;
import org.rocshmem.api.dlpack.DLPack;
import org.rocshmem.presets.NativeVariant;

/** The dtype table both directions, and what the module checks on a GPU without a ROCm libtorch (one JVM). */
class TorchTypesAndDevicesTest {
    @Test
    void everyDtypeMapsToDlpackAndBack() {
        List<ScalarType> types = List.of(ScalarType.Byte, ScalarType.Char, ScalarType.Short, ScalarType.Int,
                ScalarType.Long, ScalarType.UInt16, ScalarType.UInt32, ScalarType.UInt64, ScalarType.Half,
                ScalarType.Float, ScalarType.Double, ScalarType.BFloat16, ScalarType.Bool, ScalarType.ComplexFloat,
                ScalarType.ComplexDouble);
        for (ScalarType type : types) {
            DLDataType dl = TorchTypes.dlpack(type);
            assertEquals(type, TorchTypes.torch(dl), type.toString());
            assertEquals(TorchTypes.itemSize(type), dl.bytes(), type.toString());
        }
        assertEquals(DLDataType.INT64, TorchTypes.dlpack(ScalarType.Long));
        assertEquals(new DLDataType(DLPack.kDLComplex, 128, 1), TorchTypes.dlpack(ScalarType.ComplexDouble));
        String m = assertThrows(IllegalArgumentException.class,
                () -> TorchTypes.torch(new DLDataType(DLPack.kDLFloat, 32, 4))).getMessage();
        assertTrue(m.contains("4 lanes"), m);
        assertThrows(IllegalArgumentException.class, () -> TorchTypes.torch(new DLDataType(DLPack.kDLInt, 24, 1)));
        assertThrows(IllegalArgumentException.class, () -> TorchTypes.itemSize(ScalarType.QUInt8));
    }

    @Test
    void onAGpuWithoutARocmLibtorchSymmetricTensorsAreRefused() {
        assertFalse(torch.hasHIP(), "bytedeco's pytorch is a CPU build here");
        String m = assertThrows(UnsupportedOperationException.class,
                () -> TorchDevices.forSymmetricMemory(new Backend("rocSHMEM on an AMD GPU", NativeVariant.GPU)))
                .getMessage();
        assertTrue(m.contains("no ROCm support") && m.contains("docs/pytorch.md"), m);
        assertTrue(TorchDevices.forSymmetricMemory(new Backend("emulator", NativeVariant.EMULATOR)).is_cpu());
    }
}
