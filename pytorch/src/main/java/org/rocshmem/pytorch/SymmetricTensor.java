package org.rocshmem.pytorch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.global.torch.ScalarType;
import org.rocshmem.api.RocshmemStateException;
import org.rocshmem.api.SymmetricBuffer;
import org.rocshmem.api.SymmetricArray;

/**
 * A torch tensor whose data is symmetric memory: {@link #tensor()} and {@link #view()} are the same bytes, no copy.
 * Made by {@link TorchShmem#create} (collective, owns its block) or {@link TorchShmem#wrap} (borrows a view).
 *
 * <p>{@link #close()} releases it: an owning tensor frees its block (collective, like every rocshmem_free: all PEs
 * close in the same order); a borrowing one only lets go. Close is idempotent, and after it, or after the session
 * ends, every method throws. The torch tensor itself, and every peer tensor made from this one, is emptied
 * ({@code set_()}: zero elements, no storage) so that a reference kept elsewhere cannot reach freed memory; views
 * that torch made of it meanwhile (slices, reshapes) are the caller's to drop.
 */
public final class SymmetricTensor implements AutoCloseable {
    final TorchShmem owner;
    /** The symmetric bytes of the tensor, as the typed API's view (used by the stream operations). */
    final SymmetricArray view;
    /** The owned block, null when this tensor borrows a view. */
    private final SymmetricBuffer buffer;
    private final Tensor tensor;
    private final ScalarType dtype;
    private final long[] shape;
    private final List<Tensor> peers = new ArrayList<>();
    private volatile boolean closed;

    SymmetricTensor(TorchShmem owner, SymmetricArray view, SymmetricBuffer buffer, Tensor tensor, ScalarType dtype,
                    long[] shape) {
        this.owner = owner;
        this.view = view;
        this.buffer = buffer;
        this.tensor = tensor;
        this.dtype = dtype;
        this.shape = shape;
    }

    /** The torch tensor (a CPU tensor on the emulator); its data pointer is the symmetric address. */
    public Tensor tensor() {
        requireLive("tensor");
        return tensor;
    }

    /** The same bytes as a symmetric view (the wrapped one, or bytes of the created block), for the rest of the API. */
    public SymmetricArray view() {
        requireLive("view");
        return view;
    }

    /** The symmetric address of the first element (equal to {@code tensor().data_ptr()}). */
    public long address() {
        requireLive("address");
        return view.address();
    }

    public ScalarType dtype() {
        return dtype;
    }

    public long[] shape() {
        return shape.clone();
    }

    public long byteSize() {
        return view.byteSize();
    }

    /** True for a tensor made by {@link TorchShmem#create}, which frees its block at close. */
    public boolean ownsMemory() {
        return buffer != null;
    }

    /** True once closed, its memory freed or the session ended. */
    public boolean isClosed() {
        return closed || view.isClosed();
    }

    /** Releases the tensor; for an owning one frees the block (collective). Idempotent; safe after finalize. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            tensor.set_();
            for (Tensor peer : peers) {
                peer.set_();
            }
            peers.clear();
        }
        owner.forget(this);
        if (buffer != null && owner.session.isOpen()) {
            buffer.close();
        }
    }

    synchronized void trackPeer(Tensor peer) {
        peers.add(peer);
    }

    /** Throws unless the tensor and its session are live; allocation-free (hot paths call it). */
    void requireLive(String what) {
        if (closed) {
            throw new RocshmemStateException(what + ": this symmetric tensor was closed");
        }
        if (view.isClosed()) {
            throw new RocshmemStateException(what + ": the symmetric memory of this tensor was freed or the"
                    + " rocSHMEM session ended");
        }
    }

    @Override
    public String toString() {
        return "SymmetricTensor[" + dtype + " " + Arrays.toString(shape) + (isClosed() ? ", closed" : " at 0x"
                + Long.toHexString(view.address())) + (buffer != null ? ", owning" : ", borrowed") + "]";
    }
}
