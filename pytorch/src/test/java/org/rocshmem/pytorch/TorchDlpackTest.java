package org.rocshmem.pytorch;

import static org.bytedeco.pytorch.global.torch.arange;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rocshmem.pytorch.TorchTestSupport.longs;
import static org.rocshmem.pytorch.TorchTestSupport.stamp;

import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.global.torch.ScalarType;
import org.junit.jupiter.api.Test;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricLongs;
import org.rocshmem.api.dlpack.DLDataType;
import org.rocshmem.api.dlpack.DLManagedTensor;
import org.rocshmem.api.dlpack.DLPack;
import org.rocshmem.api.dlpack.Dlpack;
import org.rocshmem.api.dlpack.ExportedTensor;
import org.rocshmem.api.dlpack.ImportedTensor;
import org.rocshmem.api.testing.MultiPe;
import org.rocshmem.testsupport.InitializedPe;

/** DLPack round trips between symmetric memory and torch, both directions, on 2 PEs. */
class TorchDlpackTest {
    private static final int N = 12;

    @Test
    @MultiPe(value = 2, lifecycle = InitializedPe.class, timeoutSeconds = 120)
    void symmetricViewToTorchAndTorchToPutmem() {
        Rocshmem shmem = Rocshmem.current();
        int me = shmem.myPe();
        int other = 1 - me;
        try (SymmetricBuffer buffer = shmem.calloc(N, Long.BYTES)) {
            SymmetricLongs view = buffer.asLongs();
            view.copyFrom(stamp(me, N, 1));

            // symmetric view -> DLPack -> torch: same memory, and the deleter runs when torch lets go
            int consumedBefore = TorchDlpack.liveConsumed();
            Tensor t = TorchDlpack.fromDlpack(Dlpack.export(view, 3, 4));
            assertEquals(view.address(), t.data_ptr().address());
            assertTrue(t.device().is_cpu());
            assertEquals(ScalarType.Long, t.scalar_type().intern());
            assertArrayEquals(new long[] {3, 4}, TorchShmem.longs(t.sizes()));
            assertArrayEquals(stamp(me, N, 1), longs(t));
            t.mul_(new Scalar(-1));
            long[] negated = stamp(me, N, 1);
            for (int i = 0; i < N; i++) {
                negated[i] = -negated[i];
            }
            assertArrayEquals(negated, view.toArray());
            assertEquals(consumedBefore + 1, TorchDlpack.liveConsumed());
            t.close();                                     // last reference: torch frees the storage -> deleter
            assertEquals(consumedBefore, TorchDlpack.liveConsumed());
            assertArrayEquals(negated, view.toArray(), "the deleter never frees symmetric memory");

            // torch -> DLPack -> local memory of putmem
            Tensor source = arange(new Scalar(0), new Scalar(N), new TensorOptions(ScalarType.Long))
                    .add(new Scalar(100L * (me + 1)));
            int producedBefore = TorchDlpack.liveProduced();
            long managed = TorchDlpack.toDlpack(source);
            assertEquals(producedBefore + 1, TorchDlpack.liveProduced());
            DLManagedTensor struct = DLManagedTensor.at(managed);
            assertEquals(DLPack.kDLCPU, struct.dlTensor().deviceType());
            assertEquals(DLDataType.INT64, struct.dlTensor().dtype());
            assertEquals(source.data_ptr().address(), struct.dlTensor().data());
            ImportedTensor imported = Dlpack.importManaged(managed);
            shmem.barrierAll();
            view.putmem(other, imported.pointer());
            shmem.barrierAll();
            long[] expected = new long[N];
            for (int i = 0; i < N; i++) {
                expected[i] = 100L * (other + 1) + i;
            }
            assertArrayEquals(expected, view.toArray());
            imported.close();                              // the core consumer calls torch's deleter (a Java callback)
            assertEquals(producedBefore, TorchDlpack.liveProduced());

            // torch -> DLPack -> torch (the round trip torch.utils.dlpack makes)
            Tensor again = TorchDlpack.fromDlpack(TorchDlpack.toDlpack(source));
            assertEquals(source.data_ptr().address(), again.data_ptr().address());
            again.close();
            assertEquals(producedBefore, TorchDlpack.liveProduced());

            // a non-contiguous torch view exports with its strides, and import refuses it as local memory
            Tensor square = arange(new Scalar(0), new Scalar(12), new TensorOptions(ScalarType.Float)).reshape(3, 4);
            long transposed = TorchDlpack.toDlpack(square.t());
            String m = assertThrows(IllegalArgumentException.class, () -> Dlpack.importManaged(transposed))
                    .getMessage();
            assertTrue(m.contains("not contiguous"), m);
            TorchDlpack.delete(transposed);
            ExportedTensor versioned = Dlpack.exportVersioned(view);
            assertThrows(IllegalArgumentException.class, () -> TorchDlpack.fromDlpack(versioned));
            versioned.close();
            shmem.barrierAll();
        }
    }
}
