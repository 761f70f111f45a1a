package org.rocshmem.pytorch;

import static org.bytedeco.pytorch.global.torch.from_blob;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.pytorch.Device;
import org.bytedeco.pytorch.ScalarTypeOptional;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.global.torch.ScalarType;
import org.rocshmem.api.hip.HipStream;
import org.rocshmem.api.Rocshmem;
import org.rocshmem.api.SymmetricArray;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.Team;

/**
 * Symmetric PyTorch tensors for one rocSHMEM session: the Java counterpart of rocshmem4py's
 * {@code interop.torch}. {@link #create} allocates collectively, {@link #wrap} gives a tensor of an existing
 * symmetric view, {@link #peer} a tensor of another PE's copy where rocSHMEM has a direct path, and the stream
 * operations move tensors between PEs in the order of a HIP stream.
 *
 * <p>The tensors share memory with the symmetric heap. On the emulator they are CPU tensors, because emulated
 * device memory is host memory: running torch CPU operations on them is their intended use (unlike
 * {@code SymmetricBuffer.asByteBuffer()}, which the emulator refuses by default because a GPU would). Complete a
 * stream operation ({@code stream.synchronize()}) before torch reads what it wrote, and synchronize the PEs
 * ({@link #barrierAll}) before reading what other PEs put.
 *
 * <p>The stream operations on {@link SymmetricTensor}s allocate nothing per call.
 */
public final class TorchShmem {
    private static final Map<Rocshmem, TorchShmem> SESSIONS = new WeakHashMap<>();
    final Rocshmem session;
    private final Device device;
    /** Live tensors, for {@link #symmetric(Tensor)}. */
    private final List<SymmetricTensor> live = new CopyOnWriteArrayList<>();

    private TorchShmem(Rocshmem session) {
        this.session = session;
        this.device = TorchDevices.forSymmetricMemory(session.backend());
    }

    /**
     * The symmetric tensors of {@code session} (one object per session, so {@link #symmetric} sees every tensor made
     * through it); on a GPU needs a libtorch with ROCm support (see the class doc).
     */
    public static TorchShmem of(Rocshmem session) {
        if (session == null) {
            throw new IllegalArgumentException("session is null");
        }
        if (!session.isOpen()) {
            throw new org.rocshmem.api.RocshmemStateException("the rocSHMEM session was finalized");
        }
        synchronized (SESSIONS) {
            return SESSIONS.computeIfAbsent(session, TorchShmem::new);
        }
    }

    /** The session's own tensors: {@code TorchShmem.of(Rocshmem.current())}. */
    public static TorchShmem current() {
        return of(Rocshmem.current());
    }

    public Rocshmem session() {
        return session;
    }

    /** The torch device of symmetric tensors: CPU on the emulator, the current HIP device on a GPU. */
    public Device device() {
        return device;
    }

    // ---------------------------------------------------------------- making tensors

    /**
     * Collective: allocates {@code product(shape) * itemsize} bytes of the symmetric heap (rocshmem_malloc, same
     * offset on every PE) and returns them as a contiguous tensor of {@code dtype} and {@code shape}. Every PE must
     * pass the same dtype and shape. Its contents are undefined, as malloc's are; close it (collectively) to free.
     */
    public SymmetricTensor create(ScalarType dtype, long... shape) {
        long bytes = byteSize(dtype, shape);
        SymmetricBuffer buffer = session.malloc(Math.max(bytes, 1));
        try {
            SymmetricArray view = buffer.asBytes().slice(0, bytes);
            return register(new SymmetricTensor(this, view, buffer, blob(view.address(), dtype, shape), dtype,
                    shape.clone()));
        } catch (RuntimeException e) {
            buffer.close();
            throw e;
        }
    }

    /**
     * A tensor of an existing symmetric view (no allocation, no copy): the view's bytes as {@code dtype} and
     * {@code shape}, which must hold exactly {@code view.byteSize()} bytes. Closing the tensor leaves the view's
     * memory alone; freeing the memory makes the tensor refuse every use.
     */
    public SymmetricTensor wrap(SymmetricArray view, ScalarType dtype, long... shape) {
        if (view == null) {
            throw new IllegalArgumentException("view is null");
        }
        long bytes = byteSize(dtype, shape);
        if (bytes != view.byteSize()) {
            throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " of " + dtype + " holds " + bytes
                    + " bytes, but the view has " + view.byteSize() + ": " + view);
        }
        return register(new SymmetricTensor(this, view, null, blob(view.address(), dtype, shape), dtype,
                shape.clone()));
    }

    /**
     * The live symmetric tensor whose torch tensor is {@code tensor} (same data pointer and size). Throws for a
     * tensor that is not one: a torch result such as {@code t.mul(2)} is a new, private tensor (copy it into a
     * symmetric tensor with {@code copy_}), and a non-contiguous view of a symmetric tensor has no single extent.
     */
    public SymmetricTensor symmetric(Tensor tensor) {
        if (tensor == null) {
            throw new IllegalArgumentException("tensor is null");
        }
        if (!tensor.is_contiguous()) {
            throw new IllegalArgumentException("tensor is not contiguous (strides " + Arrays.toString(
                    longs(tensor.strides())) + "): symmetric operations need a contiguous tensor;"
                    + " copy it with contiguous() into a symmetric tensor");
        }
        Pointer data = tensor.data_ptr();
        long address = data == null ? 0 : data.address();
        long bytes = tensor.nbytes();
        for (SymmetricTensor candidate : live) {
            if (!candidate.isClosed() && candidate.view.address() == address && candidate.byteSize() == bytes) {
                return candidate;
            }
        }
        throw new IllegalArgumentException("tensor is not symmetric: its " + bytes + " bytes at 0x"
                + Long.toHexString(address) + " are not a live symmetric tensor of this session (make it with"
                + " TorchShmem.create or wrap; results of torch operations are private tensors)");
    }

    /**
     * A tensor of PE {@code pe}'s copy of {@code tensor}, for direct loads and stores (rocshmem_ptr): the tensor
     * itself for the calling PE, empty where rocSHMEM has no direct path to {@code pe} (across nodes, or simulated
     * nodes on the emulator). It borrows: it is emptied when {@code tensor} is closed.
     */
    public Optional<Tensor> peer(SymmetricTensor tensor, int pe) {
        tensor.requireLive("peer");
        if (pe < 0 || pe >= session.nPes()) {
            throw new IllegalArgumentException("pe " + pe + " is out of range [0, " + session.nPes() + ")");
        }
        if (pe == session.myPe()) {
            return Optional.of(tensor.tensor());
        }
        long address = tensor.view.peerAddresses()[pe];
        if (address == 0) {
            return Optional.empty();
        }
        Tensor peer = blob(address, tensor.dtype(), tensor.shape());
        tensor.trackPeer(peer);
        return Optional.of(peer);
    }

    /**
     * rocSHMEM's peer addresses of {@code tensor} as an int64 tensor of shape (n_pes): entry {@code pe} is where
     * this PE reaches PE {@code pe}'s copy directly, 0 where there is no direct path, the own address for itself
     * (rocshmem4py's {@code get_heap_bases}, an alias of its peer pointer table). A private CPU tensor.
     */
    public Tensor heapBases(SymmetricTensor tensor) {
        tensor.requireLive("heapBases");
        long[] addresses = tensor.view.peerAddresses();
        Tensor result = org.bytedeco.pytorch.global.torch.zeros(new long[] {addresses.length},
                new TensorOptions(ScalarType.Long));
        new LongPointer(result.data_ptr()).capacity(addresses.length).put(addresses);
        return result;
    }

    // ---------------------------------------------------------------- stream-ordered operations

    /**
     * rocshmem_putmem_on_stream: enqueues the copy of {@code source} into PE {@code pe}'s {@code destination}.
     * Both must have the same size in bytes.
     */
    public void put(SymmetricTensor destination, SymmetricTensor source, int pe, HipStream stream) {
        destination.requireLive("put destination");
        source.requireLive("put source");
        destination.view.putmemOnStream(stream, pe, source.view);
    }

    /** rocshmem_getmem_on_stream: enqueues the copy of PE {@code pe}'s {@code source} into {@code destination}. */
    public void get(SymmetricTensor destination, SymmetricTensor source, int pe, HipStream stream) {
        destination.requireLive("get destination");
        source.requireLive("get source");
        source.view.getmemOnStream(stream, pe, destination.view);
    }

    /** rocshmem_barrier_all_on_stream. */
    public void barrierAll(HipStream stream) {
        session.barrierAll(stream);
    }

    /**
     * rocshmem_alltoallmem_on_stream on {@code team}: block {@code j} of {@code source} goes to block {@code i}
     * (this member's index) of member {@code j}'s {@code destination}. Both tensors have the same size, a multiple
     * of the team's size; each block is {@code source.byteSize() / team.nPes()} bytes.
     */
    public void alltoall(Team team, SymmetricTensor destination, SymmetricTensor source, HipStream stream) {
        destination.requireLive("alltoall destination");
        source.requireLive("alltoall source");
        team.alltoallmem(stream, destination.view, source.view);
    }

    /** rocshmem_broadcastmem_on_stream on {@code team}: {@code source} of member {@code root} to every member. */
    public void broadcast(Team team, SymmetricTensor destination, SymmetricTensor source, int root,
                          HipStream stream) {
        destination.requireLive("broadcast destination");
        source.requireLive("broadcast source");
        team.broadcastmem(stream, destination.view, source.view, root);
    }

    // ---------------------------------------------------------------- internals

    private SymmetricTensor register(SymmetricTensor tensor) {
        live.add(tensor);
        return tensor;
    }

    void forget(SymmetricTensor tensor) {
        live.remove(tensor);
    }

    /** A tensor over {@code address} without a deleter: the memory belongs to the symmetric heap. */
    private Tensor blob(long address, ScalarType dtype, long[] shape) {
        TensorOptions options = new TensorOptions(device).dtype(new ScalarTypeOptional(dtype));
        return from_blob(new RawAddress(address), shape, options);
    }

    static long byteSize(ScalarType dtype, long[] shape) {
        int itemSize = TorchTypes.itemSize(dtype);
        if (shape == null) {
            throw new IllegalArgumentException("shape is null");
        }
        long elements = 1;
        for (long extent : shape) {
            if (extent < 0) {
                throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " has a negative extent");
            }
            elements = Math.multiplyExact(elements, extent);
        }
        return Math.multiplyExact(elements, itemSize);
    }

    static long[] longs(org.bytedeco.pytorch.LongArrayRef values) {
        long[] result = new long[(int) values.size()];
        for (int i = 0; i < result.length; i++) {
            result[i] = values.get(i);
        }
        return result;
    }

    /** A pointer at a fixed address (JavaCPP sets addresses only from inside Pointer subclasses). */
    static final class RawAddress extends Pointer {
        RawAddress(long address) {
            this.address = address;
        }
    }
}
