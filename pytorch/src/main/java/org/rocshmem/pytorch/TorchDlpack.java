package org.rocshmem.pytorch;

import static org.bytedeco.pytorch.global.torch.from_blob;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.pytorch.Device;
import org.bytedeco.pytorch.PointerConsumer;
import org.bytedeco.pytorch.ScalarTypeOptional;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.global.torch.DeviceType;
import org.bytedeco.pytorch.global.torch.ScalarType;
import org.rocshmem.api.dlpack.DLDataType;
import org.rocshmem.api.dlpack.DLManagedTensor;
import org.rocshmem.api.dlpack.DLPack;
import org.rocshmem.api.dlpack.DLTensor;
import org.rocshmem.api.dlpack.Dlpack;
import org.rocshmem.api.dlpack.ExportedTensor;

/**
 * DLPack between torch tensors and any producer or consumer, the counterpart of {@code torch.utils.dlpack}.
 * bytedeco's pytorch 2.13.0-1.5.14 does not map {@code at::toDLPack}/{@code at::fromDLPack} (no such function in
 * {@code org.bytedeco.pytorch.global.torch}), so both directions are written here on {@code from_blob} and
 * {@code data_ptr}, with the structs of {@link org.rocshmem.api.dlpack}.
 *
 * <ul>
 * <li>{@link #fromDlpack(long)} consumes a {@code DLManagedTensor*}: the torch tensor uses its memory, and the
 *     producer's deleter runs once when torch frees the tensor's storage.</li>
 * <li>{@link #toDlpack(Tensor)} produces one: the struct keeps the tensor alive until the consumer calls its
 *     deleter.</li>
 * </ul>
 */
public final class TorchDlpack {
    /** Tensors kept alive by produced structs, by manager_ctx. */
    private static final Map<Long, Tensor> PRODUCED = new HashMap<>();
    /** Consumed structs by data address, for the storage deleter (from_blob passes the data pointer only). */
    private static final Map<Long, Deque<Long>> CONSUMED = new HashMap<>();
    private static final AtomicLong NEXT_CONTEXT = new AtomicLong(1);

    /**
     * The one native deleter of produced structs (JavaCPP callbacks are few per class: one serves all). The C
     * function consumers call is the callback's thunk, the first word of the JavaCPP object it lives in.
     */
    private static final PointerConsumer PRODUCED_DELETER = new PointerConsumer() {
        @Override
        public void call(Pointer self) {
            releaseProduced(self.address());
        }
    };

    private static final long PRODUCED_DELETER_FUNCTION = new LongPointer(PRODUCED_DELETER).get(0);

    /** The one storage deleter of consumed tensors. */
    private static final PointerConsumer STORAGE_DELETER = new PointerConsumer() {
        @Override
        public void call(Pointer data) {
            releaseConsumed(data == null ? 0 : data.address());
        }
    };

    private TorchDlpack() {
    }

    // ---------------------------------------------------------------- DLPack -> torch

    /**
     * A torch tensor over the memory of the producer's {@code DLManagedTensor*} at {@code managedTensor}, which it
     * takes over: the producer's deleter runs when torch frees the tensor's storage. kDLCPU tensors become CPU
     * tensors; kDLROCM ones need a libtorch built for ROCm (they become its "cuda" device).
     */
    public static Tensor fromDlpack(long managedTensor) {
        DLManagedTensor managed = DLManagedTensor.at(managedTensor);
        DLTensor tensor = managed.dlTensor();
        ScalarType dtype = TorchTypes.torch(tensor.dtype());
        long[] shape = tensor.shape();
        long[] strides = tensor.strides();
        if (strides == null) {
            strides = Dlpack.contiguousStrides(shape);
        }
        Device device = device(tensor.deviceType(), tensor.deviceId());
        long data = tensor.data() + tensor.byteOffset();
        synchronized (CONSUMED) {
            CONSUMED.computeIfAbsent(data, k -> new ArrayDeque<>()).add(managedTensor);
        }
        TensorOptions options = new TensorOptions(device).dtype(new ScalarTypeOptional(dtype));
        try {
            return from_blob(new TorchShmem.RawAddress(data), shape, strides, STORAGE_DELETER, options);
        } catch (RuntimeException e) {
            synchronized (CONSUMED) {
                CONSUMED.get(data).removeLast();
            }
            throw e;
        }
    }

    /** {@link #fromDlpack(long)} of an export of this project: hands it off to torch. */
    public static Tensor fromDlpack(ExportedTensor exported) {
        if (exported.isVersioned()) {
            throw new IllegalArgumentException("torch takes the unversioned DLManagedTensor: export with"
                    + " Dlpack.export, not exportVersioned");
        }
        return fromDlpack(exported.handOff());
    }

    // ---------------------------------------------------------------- torch -> DLPack

    /**
     * A {@code DLManagedTensor*} describing {@code tensor} (no copy): the consumer owns it and calls its deleter,
     * which releases the tensor. CPU tensors are kDLCPU, tensors of a ROCm libtorch's "cuda" device kDLROCM.
     */
    public static long toDlpack(Tensor tensor) {
        if (tensor == null) {
            throw new IllegalArgumentException("tensor is null");
        }
        // JavaCPP makes a new enum object for a value from native code: intern() gives the constant
        DLDataType dtype = TorchTypes.dlpack(tensor.scalar_type().intern());
        int deviceType;
        int deviceId = 0;
        Device torchDevice = tensor.device();
        if (torchDevice.is_cpu()) {
            deviceType = DLPack.kDLCPU;
        } else if (torchDevice.is_cuda() && org.bytedeco.pytorch.global.torch.hasHIP()) {
            deviceType = DLPack.kDLROCM;
            deviceId = torchDevice.index();
        } else {
            throw new IllegalArgumentException("tensor is on " + tensor.device().str().getString()
                    + ", which has no DLPack device this module exports");
        }
        long[] shape = TorchShmem.longs(tensor.sizes());
        long[] strides = TorchShmem.longs(tensor.strides());
        long data = tensor.data_ptr() == null ? 0 : tensor.data_ptr().address();
        long context = NEXT_CONTEXT.getAndIncrement();
        long base = Dlpack.managedTensor(data, deviceType, deviceId, dtype, shape, strides, context,
                PRODUCED_DELETER_FUNCTION);
        synchronized (PRODUCED) {
            PRODUCED.put(context, new Tensor(tensor)); // a second reference keeps the storage alive
        }
        return base;
    }

    /** Calls the deleter of a {@code DLManagedTensor*} (what a consumer does when it is done with it). */
    public static void delete(long managedTensor) {
        Dlpack.delete(managedTensor);
    }

    /** How many produced structs still hold a tensor (for leak checks in tests). */
    public static int liveProduced() {
        synchronized (PRODUCED) {
            return PRODUCED.size();
        }
    }

    /** How many consumed structs torch still uses (for leak checks in tests). */
    public static int liveConsumed() {
        synchronized (CONSUMED) {
            return CONSUMED.values().stream().mapToInt(Deque::size).sum();
        }
    }

    // ---------------------------------------------------------------- internals

    private static void releaseProduced(long self) {
        long context = DLManagedTensor.at(self).managerCtx();
        Tensor kept;
        synchronized (PRODUCED) {
            kept = PRODUCED.remove(context);
        }
        if (kept != null) {
            kept.close();
        }
        Pointer.free(new TorchShmem.RawAddress(self));
    }

    private static void releaseConsumed(long data) {
        Long managed;
        synchronized (CONSUMED) {
            Deque<Long> structs = CONSUMED.get(data);
            managed = structs == null ? null : structs.pollFirst();
            if (structs != null && structs.isEmpty()) {
                CONSUMED.remove(data);
            }
        }
        if (managed != null) {
            delete(managed);
        }
    }

    private static Device device(int deviceType, int deviceId) {
        if (deviceType == DLPack.kDLCPU || deviceType == DLPack.kDLCUDAHost || deviceType == DLPack.kDLROCMHost) {
            return new Device(DeviceType.CPU);
        }
        if (deviceType == DLPack.kDLROCM && org.bytedeco.pytorch.global.torch.hasHIP()) {
            return new Device(DeviceType.CUDA, (byte) deviceId);
        }
        throw new IllegalArgumentException("DLPack tensor on " + DLPack.deviceTypeName(deviceType) + " cannot become"
                + " a tensor of this libtorch (" + (deviceType == DLPack.kDLROCM
                ? "kDLROCM needs a libtorch built for ROCm; bytedeco's pytorch is a CPU/CUDA build)" : "unsupported)"));
    }
}
