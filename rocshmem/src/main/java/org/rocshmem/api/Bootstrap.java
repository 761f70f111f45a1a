package org.rocshmem.api;

import static org.rocshmem.global.rocshmem.rocshmem_init;
import static org.rocshmem.global.rocshmem.rocshmem_my_pe;
import static org.rocshmem.global.rocshmem.rocshmem_n_pes;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.rocshmem.api.bootstrap.JobRendezvous;
import org.rocshmem.api.bootstrap.LaunchEnvironment;
import org.rocshmem.api.bootstrap.TcpUniqueIdExchange;
import org.rocshmem.api.bootstrap.UniqueIdExchange;
import org.rocshmem.api.bootstrap.UniqueIdKind;

/**
 * How the PEs of a job find each other at init: the argument of {@link Rocshmem#init(Bootstrap)}. Every strategy
 * ends in one rocSHMEM init call; they differ in who brings the job's unique id to each rank.
 *
 * <ul>
 * <li>{@link #detect()} ({@link Rocshmem#init()}): {@link #launchEnvironment} when this process was started by the
 *     launcher, torchrun, mpirun or srun, otherwise {@link #libraryOwn()};</li>
 * <li>{@link #launchEnvironment}: rank 0 creates the id and serves it over TCP on MASTER_ADDR:MASTER_PORT,
 *     authenticated with the job's shared secret ({@link TcpUniqueIdExchange});</li>
 * <li>{@link #exchange}: the same with your own {@link UniqueIdExchange} (MPI, Spark, a shared file, ...);</li>
 * <li>{@link #uniqueId}: every rank already holds the id ({@link Rocshmem#createUniqueId()} on one of them);</li>
 * <li>{@link #libraryOwn()}: plain {@code rocshmem_init()}, rocSHMEM's own bootstrap (MPI on real rocSHMEM,
 *     RANK/WORLD_SIZE on the emulator).</li>
 * </ul>
 *
 * <p>Arguments are checked when the strategy is made, before anything loads or initializes. RCCL takes the same
 * strategies ({@code Communicator.init(Bootstrap)}): {@link #uniqueIdFor} brings its id the same way.
 */
public final class Bootstrap implements JobRendezvous {
    /** Rank and size of a strategy that leaves them to the library (checked after init only when known). */
    private static final int UNKNOWN = -1;

    private final String description;
    private final int rank;
    private final int nranks;
    private final Runnable initCall;
    /** How a library's unique id reaches this rank; null when the library bootstraps itself. */
    private final IdSource ids;

    /** Brings the id of {@code kind}'s library to this rank; rank 0 makes it with {@code create}. */
    private interface IdSource {
        byte[] bring(UniqueIdKind kind, Supplier<byte[]> create);
    }

    private Bootstrap(String description, int rank, int nranks, IdSource ids, Runnable initCall) {
        this.description = description;
        this.rank = rank;
        this.nranks = nranks;
        this.ids = ids;
        this.initCall = initCall;
    }

    private Bootstrap(String description, int rank, int nranks, IdSource ids) {
        this(description, rank, nranks, ids,
                () -> UniqueIds.initAttr(rank, nranks, ids.bring(UniqueIdKind.ROCSHMEM, UniqueIds::create)));
    }

    /** The launch environment's bootstrap when there is one, else rocSHMEM's own (what {@link Rocshmem#init()} uses). */
    public static Bootstrap detect() {
        Map<String, String> env = System.getenv();
        return LaunchEnvironment.isLaunched(env) ? launchEnvironment(LaunchEnvironment.fromSystemEnvironment())
                : libraryOwn();
    }

    /** Unique id served by rank 0 over TCP to the ranks {@code env} describes (MASTER_ADDR:MASTER_PORT + secret). */
    public static Bootstrap launchEnvironment(LaunchEnvironment env) {
        Objects.requireNonNull(env, "env");
        return exchange(env.rank(), env.worldSize(), new TcpUniqueIdExchange(env), env.bootstrapTimeout());
    }

    /**
     * Unique id created on rank 0 and brought to every rank by {@code exchange}. Collective. The id travels tagged
     * as rocSHMEM's ({@link UniqueIdKind}), so the same exchange can also carry RCCL's id, before or after.
     */
    public static Bootstrap exchange(int rank, int nranks, UniqueIdExchange exchange) {
        return exchange(rank, nranks, exchange, LaunchEnvironment.DEFAULT_BOOTSTRAP_TIMEOUT);
    }

    private static Bootstrap exchange(int rank, int nranks, UniqueIdExchange exchange, Duration timeout) {
        Objects.requireNonNull(exchange, "exchange");
        requireRank(rank, nranks);
        return new Bootstrap("unique id via " + exchange.getClass().getSimpleName(), rank, nranks,
                (kind, create) -> kind.exchange(exchange, rank, nranks, timeout, create));
    }

    /** Unique id every rank already holds ({@code uid} is copied). */
    public static Bootstrap uniqueId(int rank, int nranks, byte[] uid) {
        UniqueIds.requireValid(uid);
        requireRank(rank, nranks);
        byte[] copy = uid.clone();
        return new Bootstrap("unique id", rank, nranks, (kind, create) -> copy.clone());
    }

    /** Plain rocshmem_init(): rocSHMEM bootstraps itself and decides rank and size. */
    public static Bootstrap libraryOwn() {
        return new Bootstrap("rocshmem_init", UNKNOWN, UNKNOWN, null, () -> {
            rocshmem_init();
            if (rocshmem_my_pe() < 0 || rocshmem_n_pes() < 1) {
                throw new RocshmemException("rocshmem_init failed (my_pe=" + rocshmem_my_pe() + ", n_pes="
                        + rocshmem_n_pes() + "); rocSHMEM printed the reason on stderr");
            }
        });
    }

    private static void requireRank(int rank, int nranks) {
        if (nranks < 1) {
            throw new IllegalArgumentException("nranks " + nranks + " must be at least 1");
        }
        if (rank < 0 || rank >= nranks) {
            throw new IllegalArgumentException("rank " + rank + " is outside [0, " + nranks + ")");
        }
    }

    /** Runs the init call (natives loaded, no session open yet). */
    void initialize() {
        initCall.run();
    }

    /**
     * The unique id of another library ({@code kind}, e.g. RCCL) brought to this rank the way this strategy brings
     * rocSHMEM's: made by {@code create} on rank 0 and exchanged (tagged with its kind, so the same exchange can
     * carry both libraries' ids), or the id every rank was given. Collective for an exchange.
     *
     * @throws UnsupportedOperationException for {@link #libraryOwn()}, which leaves the rendezvous to rocSHMEM
     */
    @Override
    public byte[] uniqueIdFor(UniqueIdKind kind, Supplier<byte[]> create) {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(create, "create");
        if (ids == null) {
            throw new UnsupportedOperationException(this + " leaves the rendezvous to rocSHMEM, which has no unique"
                    + " id for " + kind + "; start the job with a launcher (RANK, WORLD_SIZE, MASTER_ADDR) or use"
                    + " Bootstrap.exchange(...)");
        }
        return ids.bring(kind, create);
    }

    /** Whether the library's PE and size must equal the requested rank and size. */
    public boolean knowsRank() {
        return rank != UNKNOWN;
    }

    /** The requested rank (when {@link #knowsRank()}). */
    @Override
    public int rank() {
        return rank;
    }

    /** The requested number of ranks (when {@link #knowsRank()}). */
    @Override
    public int nranks() {
        return nranks;
    }

    @Override
    public String toString() {
        return description + (knowsRank() ? " (rank " + rank + " of " + nranks + ")" : "");
    }
}
