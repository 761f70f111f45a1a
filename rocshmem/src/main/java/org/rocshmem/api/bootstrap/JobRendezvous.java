package org.rocshmem.api.bootstrap;

import java.util.Map;
import java.util.function.Supplier;

/**
 * What a rank needs to join a job, whichever library joins: its rank, the job's size, and the way a library's
 * unique id reaches it. rocSHMEM's {@code Bootstrap} strategies are rendezvous; an RCCL communicator takes any, so
 * one exchange or port serves both libraries without either knowing the other.
 */
public interface JobRendezvous {
    /** This rank (-1 when the library is left to find it). */
    int rank();

    /** The number of ranks (-1 when the library is left to find it). */
    int nranks();

    /**
     * The unique id of {@code kind}'s library brought to this rank: made by {@code create} on rank 0 and exchanged
     * (tagged with its kind), or the id every rank was given. Collective for an exchange.
     *
     * @throws UnsupportedOperationException when this rendezvous leaves the exchange to a library
     */
    byte[] uniqueIdFor(UniqueIdKind kind, Supplier<byte[]> create);

    /** Rank 0 serves the ids over TCP on MASTER_ADDR:MASTER_PORT to the ranks {@code env} describes. */
    static JobRendezvous launchEnvironment(LaunchEnvironment env) {
        java.util.Objects.requireNonNull(env, "env");
        TcpUniqueIdExchange exchange = new TcpUniqueIdExchange(env);
        return exchange(env.rank(), env.worldSize(), exchange, env.bootstrapTimeout());
    }

    /**
     * The rendezvous of the launch environment this process was started in (launcher, torchrun, mpirun, srun).
     *
     * @throws UnsupportedOperationException when the process was not started by one
     */
    static JobRendezvous fromLaunchEnvironment() {
        Map<String, String> env = System.getenv();
        if (!LaunchEnvironment.isLaunched(env)) {
            throw new UnsupportedOperationException("this process was not started by a launcher (no RANK, WORLD_SIZE,"
                    + " MASTER_ADDR in its environment), so there is no rendezvous to bring a unique id; start the"
                    + " job with a launcher, or pass a rendezvous (Bootstrap.exchange(...), Bootstrap.uniqueId(...))");
        }
        return launchEnvironment(LaunchEnvironment.fromSystemEnvironment());
    }

    /** Ids made on rank 0 and brought to every rank by {@code exchange}, tagged with their kind. */
    static JobRendezvous exchange(int rank, int nranks, UniqueIdExchange exchange, java.time.Duration timeout) {
        java.util.Objects.requireNonNull(exchange, "exchange");
        return new JobRendezvous() {
            @Override
            public int rank() {
                return rank;
            }

            @Override
            public int nranks() {
                return nranks;
            }

            @Override
            public byte[] uniqueIdFor(UniqueIdKind kind, Supplier<byte[]> create) {
                return kind.exchange(exchange, rank, nranks, timeout, create);
            }

            @Override
            public String toString() {
                return "unique id via " + exchange.getClass().getSimpleName() + " (rank " + rank + " of " + nranks
                        + ")";
            }
        };
    }
}
