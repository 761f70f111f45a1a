package org.rocshmem.api.bootstrap;

import java.util.function.Supplier;

/**
 * Distributes the bytes of a unique id from rank 0 to every rank: rocSHMEM's (rocshmem_uniqueid_t) for
 * {@code Rocshmem.init}, RCCL's (ncclUniqueId) for {@code Communicator}.
 *
 * <p>The libraries only need all ranks to hold the same id before they initialize; how the bytes travel is up to the
 * application. {@link TcpUniqueIdExchange} is the default for launcher/mpirun/torchrun-style environments; an MPI
 * broadcast, a Spark broadcast variable or a Kubernetes config map can implement this interface instead.
 *
 * <p>The bytes are opaque, and their length is that of the array rank 0's {@code createOnRoot} returns: the id
 * with a short tag naming its library in front ({@link UniqueIdKind}), so one exchange can carry both libraries' ids.
 * An implementation must deliver the array with its length (an MPI broadcast sends the length first).
 */
public interface UniqueIdExchange {

    /**
     * Collective call: every rank of the job calls it once with the same {@code nranks}.
     *
     * @param rank         this process's rank, {@code 0 <= rank < nranks}
     * @param nranks       number of ranks taking part
     * @param createOnRoot called only on rank 0 to create the id (e.g. {@code rocshmem_get_uniqueid})
     * @return the id created on rank 0 (a fresh array, identical content on every rank)
     * @throws BootstrapException if the exchange fails or times out
     */
    byte[] exchange(int rank, int nranks, Supplier<byte[]> createOnRoot);
}
