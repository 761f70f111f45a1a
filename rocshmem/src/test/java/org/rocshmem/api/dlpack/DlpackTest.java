package org.rocshmem.api.dlpack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.CType;
import org.rocshmem.api.hip.Dim3;
import org.rocshmem.api.hip.HipModule;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.RegisteredBuffer;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.api.hip.DataType;
import org.rocshmem.api.hip.DeviceBuffer;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.testsupport.InitializedPe;

/** DLPack export and import without any framework, on 2 PEs of the emulator (one JVM each). */
@Tag("emu")
class DlpackTest {
    private static final int N = 12;

    private static long[] stamp(int pe) {
        long[] values = new long[N];
        for (int i = 0; i < N; i++) {
            values[i] = pe * 1000L + i;
        }
        return values;
    }

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 90)
    void exportDescribesSymmetricMemoryAndItsDeleterFreesOnlyTheStruct() {
        Rocshmem shmem = Rocshmem.current();
        int me = shmem.myPe();
        try (SymmetricBuffer buffer = shmem.calloc(N, Long.BYTES)) {
            SymmetricLongs view = buffer.asLongs();
            view.copyFrom(stamp(me));
            try (ExportedTensor exported = Dlpack.export(view, 3, 4)) {
                assertFalse(exported.isVersioned());
                DLTensor t = exported.dlTensor();
                assertEquals(view.address(), t.data(), "zero copy: data is the symmetric address");
                assertEquals(DLPack.kDLCPU, t.deviceType(), "emulated device memory is host memory");
                assertEquals(0, t.deviceId());
                assertEquals(2, t.ndim());
                assertEquals(DLDataType.INT64, t.dtype());
                assertArrayEquals(new long[] {3, 4}, t.shape());
                assertArrayEquals(new long[] {4, 1}, t.strides());
                assertEquals(0, t.byteOffset());
                DLManagedTensor managed = exported.managed();
                assertEquals(0, managed.managerCtx());
                assertEquals(Loader.addressof("free").address(), managed.deleter());
                assertEquals(Dlpack.exportDeleter(), managed.deleter());
            }
            // the struct is gone, the symmetric memory is not
            assertArrayEquals(stamp(me), view.toArray());

            try (ExportedTensor versioned = Dlpack.exportVersioned(view)) {
                DLManagedTensorVersioned struct = versioned.versionedStruct();
                assertEquals(DLPack.MAJOR_VERSION, struct.majorVersion());
                assertEquals(DLPack.MINOR_VERSION, struct.minorVersion());
                assertEquals(0, struct.flags());
                assertEquals(Dlpack.exportDeleter(), struct.deleter());
                assertEquals(view.address(), struct.dlTensor().data());
                assertArrayEquals(new long[] {N}, struct.dlTensor().shape());
                assertThrows(IllegalStateException.class, versioned::managed);
                // a consumer (here this package's own import) takes it and calls the deleter at close
                try (ImportedTensor back = Dlpack.importVersioned(versioned.handOff())) {
                    assertEquals(view.address(), back.address());
                    assertEquals(N * Long.BYTES, back.byteSize());
                }
            }

            // buffers of other kinds and dtypes
            try (ExportedTensor floats = Dlpack.export(buffer, DLDataType.FLOAT32, 2, 12)) {
                assertEquals(DLDataType.FLOAT32, floats.dlTensor().dtype());
                assertEquals(buffer.address(), floats.dlTensor().data());
            }
            DeviceBuffer device = DeviceBuffer.of(view.address(), N, DataType.UINT64);
            try (ExportedTensor fromDevice = Dlpack.export(device)) {
                assertEquals(DLDataType.UINT64, fromDevice.dlTensor().dtype());
                assertArrayEquals(new long[] {N}, fromDevice.dlTensor().shape());
                assertEquals(DLPack.kDLCPU, fromDevice.dlTensor().deviceType());
            }
            assertEquals(new DLDataType(DLPack.kDLUInt, 32, 1), DLDataType.of(CType.UINT));
            assertEquals(DLDataType.FLOAT64, DLDataType.of(CType.DOUBLE));

            // hand-off: the consumer owns the struct; close no longer frees it
            ExportedTensor handed = Dlpack.export(view);
            long address = handed.handOff();
            assertDoesNotThrow(handed::close);
            assertThrows(IllegalStateException.class, handed::dlTensor);
            assertEquals(view.address(), DLManagedTensor.at(address).dlTensor().data());
            Dlpack.delete(address);                         // the consumer's call of the deleter (free, from C)
            assertArrayEquals(stamp(me), view.toArray());
            shmem.barrierAll();
        }
    }

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 90)
    void importedTensorsAreLocalMemoryForPutmemAndGetmem() {
        Rocshmem shmem = Rocshmem.current();
        int me = shmem.myPe();
        int other = 1 - me;
        ByteBuffer local = ByteBuffer.allocateDirect(N * Long.BYTES).order(ByteOrder.nativeOrder());
        local.asLongBuffer().put(stamp(me));
        try (SymmetricBuffer buffer = shmem.calloc(N, Long.BYTES);
             RegisteredBuffer registered = shmem.register(local);
             ExportedTensor exported = Dlpack.export(registered, DLDataType.INT64, N)) {
            assertEquals(DLPack.kDLCPU, exported.dlTensor().deviceType());
            ImportedTensor imported = Dlpack.importManaged(exported.handOff());
            assertEquals(new BytePointer(local).address(), imported.address());
            assertArrayEquals(new long[] {N}, imported.shape());
            SymmetricLongs view = buffer.asLongs();
            view.putmem(other, imported.pointer());             // DLPack memory as putmem's source
            shmem.barrierAll();
            assertArrayEquals(stamp(other), view.toArray());
            view.copyFrom(new long[N]);
            shmem.barrierAll();
            local.asLongBuffer().put(new long[N]);
            view.getmem(other, imported.writablePointer());     // and as getmem's destination
            long[] got = new long[N];
            local.asLongBuffer().get(got);
            assertArrayEquals(new long[N], got);
            imported.close();                                    // calls the export's deleter: frees the struct only
            assertDoesNotThrow(imported::close);
            assertThrows(IllegalStateException.class, imported::pointer);
            assertArrayEquals(new long[N], view.toArray());
            shmem.barrierAll();
        }
    }

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 90)
    void importedTensorIsAKernelArgument() {
        Rocshmem shmem = Rocshmem.current();
        try (HipModule module = HipModule.loadResource("kernels/probes");
             SymmetricBuffer out = shmem.calloc(8, Long.BYTES);
             HipStream stream = HipStream.create();
             ImportedTensor imported = Dlpack.importManaged(Dlpack.export(out.asLongs()).handOff())) {
            // echo(long* out, char, short, int, long, float, double, unsigned char) writes back what it received
            module.kernel("echo").launch(Dim3.of(1), Dim3.of(32), 0, stream, imported.writablePointer(), (byte) 7,
                    (short) 8, 9, 10L, 1.5f, 2.5, (byte) 11);
            stream.synchronize();
            long[] got = out.asLongs().toArray();
            assertArrayEquals(new long[] {7, 8, 9, 10, 1500, 2500, 11}, java.util.Arrays.copyOf(got, 7));
            shmem.barrierAll();
        }
    }

    @Test
    void importRefusesWhatLocalMemoryCannotBe() {
        Pointer block = Pointer.malloc(DLManagedTensorVersioned.SIZE + 32);
        Pointer.memset(block, 0, DLManagedTensorVersioned.SIZE + 32);
        long shape = block.address() + DLManagedTensorVersioned.SIZE;
        long strides = shape + 16;
        BytePointer longs = new BytePointer(block).capacity(DLManagedTensorVersioned.SIZE + 32);
        longs.putLong(DLManagedTensorVersioned.SIZE, 3);
        longs.putLong(DLManagedTensorVersioned.SIZE + 8, 4);
        longs.putLong(DLManagedTensorVersioned.SIZE + 16, 1);   // column-major: not contiguous
        longs.putLong(DLManagedTensorVersioned.SIZE + 24, 3);
        try {
            DLManagedTensor managed = DLManagedTensor.at(block.address());
            managed.dlTensor().write(0x1000, DLPack.kDLCUDA, 0, DLDataType.FLOAT32, shape, 0, 2);
            String m = assertThrows(IllegalArgumentException.class, () -> Dlpack.importManaged(block.address()))
                    .getMessage();
            assertTrue(m.contains("kDLCUDA"), m);
            managed.dlTensor().write(0x1000, DLPack.kDLCPU, 0, DLDataType.FLOAT32, shape, strides, 2);
            m = assertThrows(IllegalArgumentException.class, () -> Dlpack.importManaged(block.address()))
                    .getMessage();
            assertTrue(m.contains("not contiguous"), m);
            managed.dlTensor().write(0x1000, DLPack.kDLCPU, 0, DLDataType.FLOAT32, shape, 0, 2);
            ImportedTensor ok = Dlpack.importManaged(block.address());
            assertEquals(48, ok.byteSize());
            assertNull(managed.dlTensor().strides());

            DLManagedTensorVersioned versioned = DLManagedTensorVersioned.at(block.address());
            versioned.writeHeader(0, 0, DLPack.FLAG_BITMASK_READ_ONLY);
            versioned.dlTensor().write(0x1000, DLPack.kDLCPU, 0, DLDataType.INT32, shape, 0, 2);
            ImportedTensor readOnly = Dlpack.importVersioned(block.address());
            assertTrue(readOnly.isReadOnly());
            assertDoesNotThrow(readOnly::pointer);
            m = assertThrows(IllegalStateException.class, readOnly::writablePointer).getMessage();
            assertTrue(m.contains("read-only"), m);
            new BytePointer(block).capacity(8).putInt(0, 2);       // major version 2
            m = assertThrows(IllegalArgumentException.class, () -> Dlpack.importVersioned(block.address()))
                    .getMessage();
            assertTrue(m.contains("major version 2"), m);
            assertThrows(IllegalArgumentException.class, () -> Dlpack.importManaged(0));
        } finally {
            Pointer.free(block);
        }
    }

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 90)
    void exportChecksShapesAndLiveness() {
        Rocshmem shmem = Rocshmem.current();
        SymmetricBuffer buffer = shmem.calloc(N, Long.BYTES);
        SymmetricLongs view = buffer.asLongs();
        String m = assertThrows(IllegalArgumentException.class, () -> Dlpack.export(view, 5, 2)).getMessage();
        assertTrue(m.contains("80 bytes") && m.contains("96"), m);
        m = assertThrows(IllegalArgumentException.class, () -> Dlpack.export(view, -1, -12)).getMessage();
        assertTrue(m.contains("negative"), m);
        m = assertThrows(IllegalArgumentException.class, () -> Dlpack.export(buffer, new DLDataType(DLPack.kDLInt, 4, 1), 192))
                .getMessage();
        assertTrue(m.contains("sub-byte"), m);
        buffer.close();
        assertThrows(RuntimeException.class, () -> Dlpack.export(view));
        assertThrows(IllegalStateException.class, () -> Dlpack.export(buffer, DLDataType.INT64, N));
    }
}
