package org.rocshmem.pytorch;

import java.util.function.Supplier;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.pytorch.Backend;
import org.bytedeco.pytorch.ByteVector;
import org.bytedeco.pytorch.Scalar;
import org.bytedeco.pytorch.Store;
import org.bytedeco.pytorch.Tensor;
import org.bytedeco.pytorch.TensorOptions;
import org.bytedeco.pytorch.TensorVector;
import org.bytedeco.pytorch.global.torch.ScalarType;
import org.rocshmem.api.Bootstrap;
import org.rocshmem.api.bootstrap.BootstrapException;
import org.rocshmem.api.bootstrap.UniqueIdExchange;

/**
 * rocSHMEM init from a PyTorch program, the Java counterpart of rocshmem4py's {@code init_with_torch}: rank 0's
 * unique id travels through torch's distributed key-value store (the {@code Store} a process group rendezvouses
 * on, such as the {@code TCPStore} that {@code torchrun} and {@code init_process_group("env://")} use).
 *
 * <p>Plain {@code Rocshmem.init()} already reads the variables torchrun sets (RANK, WORLD_SIZE, LOCAL_RANK,
 * LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT) and serves the id itself on MASTER_ADDR:MASTER_PORT. When torch's
 * store already listens there (torchrun's agent store, or a process group made first), use
 * {@code Rocshmem.init(TorchBootstrap.viaStore(store, rank, worldSize))} instead: no second listener is needed.
 * {@link #viaProcessGroup} broadcasts the id on a process group instead (gloo, on the CPU).
 */
public final class TorchBootstrap {
    /** The store key under which rank 0 publishes the id. */
    public static final String DEFAULT_KEY = "rocshmem/unique_id";

    private TorchBootstrap() {
    }

    /** The bootstrap that brings rank 0's id to every rank through {@code store} (collective). */
    public static Bootstrap viaStore(Store store, int rank, int worldSize) {
        return Bootstrap.exchange(rank, worldSize, new StoreExchange(store, DEFAULT_KEY));
    }

    /**
     * The bootstrap that brings rank 0's id to every rank by a broadcast on a torch process group (as rocshmem4py's
     * {@code broadcast_object_list}): {@code group} is a backend over the job's ranks, e.g. a
     * {@code ProcessGroupGloo} (collective).
     */
    public static Bootstrap viaProcessGroup(Backend group, int rank, int worldSize) {
        return Bootstrap.exchange(rank, worldSize, exchange(group));
    }

    /** A {@link UniqueIdExchange} by broadcast from rank 0 on {@code group}: the length, then the bytes. */
    public static UniqueIdExchange exchange(Backend group) {
        if (group == null) {
            throw new IllegalArgumentException("process group is null");
        }
        return (rank, nranks, createOnRoot) -> {
            try {
                byte[] id = rank == 0 ? createOnRoot.get() : null;
                Tensor length = org.bytedeco.pytorch.global.torch.zeros(new long[] {1},
                        new TensorOptions(ScalarType.Long));
                if (id != null) {
                    length.fill_(new Scalar((long) id.length));
                }
                group.broadcast(new TensorVector(length))._wait();
                int n = (int) length.item_long();
                Tensor bytes = org.bytedeco.pytorch.global.torch.zeros(new long[] {n},
                        new TensorOptions(ScalarType.Byte));
                BytePointer data = new BytePointer(bytes.data_ptr()).capacity(n);
                if (id != null) {
                    data.put(id);
                }
                group.broadcast(new TensorVector(bytes))._wait();
                byte[] result = new byte[n];
                data.get(result);
                return result;
            } catch (RuntimeException e) {
                throw new BootstrapException("rank " + rank + " could not receive the unique id by broadcast on the"
                        + " torch process group: " + e.getMessage(), e);
            }
        };
    }

    /** A {@link UniqueIdExchange} over a torch store, under {@code key} (one key per exchange). */
    public static UniqueIdExchange exchange(Store store, String key) {
        return new StoreExchange(store, key);
    }

    private record StoreExchange(Store store, String key) implements UniqueIdExchange {
        StoreExchange {
            if (store == null) {
                throw new IllegalArgumentException("store is null");
            }
            if (key == null || key.isEmpty()) {
                throw new IllegalArgumentException("store key is empty");
            }
        }

        @Override
        public byte[] exchange(int rank, int nranks, Supplier<byte[]> createOnRoot) {
            try {
                if (rank == 0) {
                    byte[] id = createOnRoot.get();
                    store.set(key, new ByteVector(id));
                    return id;
                }
                ByteVector value = store.get(key); // blocks until rank 0 has set it, or the store's timeout
                byte[] id = new byte[(int) value.size()];
                for (int i = 0; i < id.length; i++) {
                    id[i] = value.get(i);
                }
                return id;
            } catch (RuntimeException e) {
                throw new BootstrapException("rank " + rank + " could not exchange the unique id through the torch"
                        + " store under '" + key + "': " + e.getMessage(), e);
            }
        }
    }
}
