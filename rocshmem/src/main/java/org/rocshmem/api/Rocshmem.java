package org.rocshmem.api;

import static org.rocshmem.global.hip.hipDeviceSynchronize;
import static org.rocshmem.global.rocshmem.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.rocshmem.api.bootstrap.LaunchEnvironment;
import org.rocshmem.api.bootstrap.TcpUniqueIdExchange;
import org.rocshmem.api.bootstrap.UniqueIdExchange;

/**
 * The rocSHMEM session of this process: {@code try (Rocshmem shmem = Rocshmem.init()) { ... }}.
 *
 * <p>Why a session object and not static calls: rocSHMEM state is per process, so there is at most one session,
 * but making it an {@link AutoCloseable} value gives finalize a natural, visible place (try-with-resources), ties
 * buffers and teams to the session that made them (so use after finalize is detected in Java, not by a crash), and
 * keeps the tracking of leftovers in one object. {@link #current()} reaches it from anywhere.
 *
 * <p>Init ladder (every path first pins the HIP device from LOCAL_RANK / OMPI_COMM_WORLD_LOCAL_RANK):
 * <ul>
 * <li>{@link #init()}: if RANK/WORLD_SIZE (launcher, torchrun) or OMPI_COMM_WORLD_* (mpirun) are set, as
 *     {@link #initFromEnvironment}; otherwise {@link #initRaw()};</li>
 * <li>{@link #initFromEnvironment}: rank 0 creates the unique id and serves it over TCP on MASTER_ADDR:MASTER_PORT,
 *     authenticated with the job's shared secret ({@link TcpUniqueIdExchange});</li>
 * <li>{@link #initWithExchange}: the same with your own {@link UniqueIdExchange} (MPI, Spark, ...);</li>
 * <li>{@link #initWithUniqueId}: you already hold the 128-byte id on every rank;</li>
 * <li>{@link #initRaw()}: plain rocshmem_init() (rocSHMEM's own bootstrap; MPI on real rocSHMEM).</li>
 * </ul>
 *
 * <p>{@link #close()} finalizes, collectively: device sync, destroy tracked teams (newest first, the same order on every PE), free
 * leaked buffers (each logged with its allocation site), rocshmem_finalize (whose implicit barrier is the only
 * synchronization). A JVM shutdown hook does the same, bounded in time, if the program forgot, and nothing collective
 * if the program ends abnormally ({@link FinalizeAtExit}). rocSHMEM cannot be initialized again after finalize.
 */
public final class Rocshmem implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Rocshmem.class.getName());
    private static final Object LOCK = new Object();
    /** The open session, or the finalized one (kept to say "finalized" rather than "not initialized"). */
    private static Rocshmem session;

    private final int myPe;
    private final int nPes;
    private final Backend backend;
    private final long invalidTeamHandle;
    private final Team world;
    private final Team shared;
    private final FinalizeAtExit exitHook;
    private volatile boolean open = true;
    private long allocations;
    /** Live owned blocks in allocation order: every PE allocates in the same order, so frees line up. */
    private final Map<Long, Allocation> liveBuffers = new LinkedHashMap<>();
    /**
     * Live split teams in creation order. Splits are collective and happen in program order, so
     * every member PE sees the same order; handle values (pointers) differ between PEs and would not.
     */
    private final Map<Long, Team> liveTeams = new LinkedHashMap<>();
    private final List<RegisteredBuffer> registrations = new ArrayList<>();

    private Rocshmem(Backend backend) {
        this.myPe = rocshmem_my_pe();
        this.nPes = rocshmem_n_pes();
        this.backend = backend;
        this.invalidTeamHandle = ROCSHMEM_TEAM_INVALID();
        this.world = new Team(this, ROCSHMEM_TEAM_WORLD(), Team.Kind.WORLD);
        this.shared = new Team(this, ROCSHMEM_TEAM_SHARED(), Team.Kind.SHARED);
        this.exitHook = new FinalizeAtExit(this);
    }

    // ---------------------------------------------------------------- init ladder

    /** Initializes from the launch environment if there is one, else with plain rocshmem_init(). */
    public static Rocshmem init() {
        Map<String, String> env = System.getenv();
        boolean launched = env.containsKey("RANK") || env.containsKey("OMPI_COMM_WORLD_RANK");
        return launched ? initFromEnvironment(LaunchEnvironment.fromSystemEnvironment()) : initRaw();
    }

    /** Unique-id init with the id served by rank 0 over TCP (MASTER_ADDR:MASTER_PORT + shared secret). */
    public static Rocshmem initFromEnvironment(LaunchEnvironment env) {
        Objects.requireNonNull(env, "env");
        return initWithExchange(env.rank(), env.worldSize(), new TcpUniqueIdExchange(env));
    }

    /** Unique-id init; rank 0 creates the id and {@code exchange} brings it to every rank. Collective. */
    public static Rocshmem initWithExchange(int rank, int nranks, UniqueIdExchange exchange) {
        Objects.requireNonNull(exchange, "exchange");
        return open("unique id via " + exchange.getClass().getSimpleName(), () -> {
            byte[] uid = exchange.exchange(rank, nranks, UniqueIds::create);
            UniqueIds.initAttr(rank, nranks, uid);
        }, rank, nranks);
    }

    /** Unique-id init with an id every rank already holds (from {@link #createUniqueId()} on one rank). */
    public static Rocshmem initWithUniqueId(int rank, int nranks, byte[] uid) {
        UniqueIds.requireValid(uid);
        return open("unique id", () -> UniqueIds.initAttr(rank, nranks, uid), rank, nranks);
    }

    /** Plain rocshmem_init(): rocSHMEM bootstraps itself (MPI on real rocSHMEM; RANK/WORLD_SIZE on the emulator). */
    public static Rocshmem initRaw() {
        return open("rocshmem_init", () -> {
            rocshmem_init();
            if (rocshmem_my_pe() < 0 || rocshmem_n_pes() < 1) {
                throw new RocshmemException("rocshmem_init failed (my_pe=" + rocshmem_my_pe() + ", n_pes="
                        + rocshmem_n_pes() + "); rocSHMEM printed the reason on stderr");
            }
        }, -1, -1);
    }

    /** A fresh 128-byte unique id (rocshmem_get_uniqueid); needs no initialized session. */
    public static byte[] createUniqueId() {
        Loader.load(org.rocshmem.global.rocshmem.class);
        return UniqueIds.create();
    }

    /** The open session. */
    public static Rocshmem current() {
        synchronized (LOCK) {
            if (session == null) {
                throw RocshmemStateException.notInitialized();
            }
            session.requireOpen();
            return session;
        }
    }

    public static boolean isInitialized() {
        synchronized (LOCK) {
            return session != null && session.open;
        }
    }

    private static Rocshmem open(String how, Runnable initCall, int rank, int nranks) {
        synchronized (LOCK) {
            if (session != null) {
                throw session.open ? new RocshmemStateException("rocSHMEM is already initialized (PE " + session.myPe
                        + " of " + session.nPes + "); call close() before initializing again")
                        : RocshmemStateException.finalized();
            }
            Loader.load(org.rocshmem.global.rocshmem.class);
            Backend backend = detectBackend();  // a constant query, valid before init
            DeviceSelection.fromEnvironment(System.getenv(), backend.emulator());
            InitFailure.run(initCall, backend);
            Rocshmem opened = new Rocshmem(backend);
            if (rank >= 0 && (opened.myPe != rank || opened.nPes != nranks)) {
                throw new RocshmemException("rocSHMEM initialized as PE " + opened.myPe + " of " + opened.nPes
                        + " but rank " + rank + " of " + nranks + " was requested");
            }
            session = opened;
            opened.exitHook.install();
            LOG.log(System.Logger.Level.DEBUG, "rocSHMEM initialized ({0}): PE {1} of {2} on {3}", how,
                    opened.myPe, opened.nPes, opened.backend);
            return opened;
        }
    }

    private static Backend detectBackend() {
        byte[] text = new byte[ROCSHMEM_MAX_NAME_LEN + 1];
        rocshmem_info_get_name(text);
        int end = 0;
        while (end < text.length && text[end] != 0) {
            end++;
        }
        String name = new String(text, 0, end, java.nio.charset.StandardCharsets.UTF_8);
        String variant = Loader.getPlatform() + System.getProperty(Backend.EXTENSION_PROPERTY, "");
        boolean emulator = Backend.emulatorVariantSelected() || name.toLowerCase().contains("emulator");
        return new Backend(name, variant, emulator);
    }

    // ---------------------------------------------------------------- queries

    public int myPe() {
        requireOpen();
        return myPe;
    }

    public int nPes() {
        requireOpen();
        return nPes;
    }

    public Backend backend() {
        return backend;
    }

    public boolean isOpen() {
        return open;
    }

    // ---------------------------------------------------------------- memory

    /** Collective rocshmem_malloc of {@code bytes} (> 0) uninitialized bytes. */
    public SymmetricBuffer malloc(long bytes) {
        Checks.positive("malloc size", bytes);
        return allocate("malloc", bytes, () -> rocshmem_malloc(bytes));
    }

    /** Collective rocshmem_calloc: {@code count * elementSize} zeroed bytes. */
    public SymmetricBuffer calloc(long count, long elementSize) {
        Checks.positive("calloc count", count);
        Checks.positive("calloc element size", elementSize);
        long bytes;
        try {
            bytes = Math.multiplyExact(count, elementSize);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("calloc: " + count + " x " + elementSize + " bytes overflows", e);
        }
        return allocate("calloc", bytes, () -> rocshmem_calloc(count, elementSize));
    }

    /** Collective rocshmem_align: {@code bytes} at an address that is a multiple of {@code alignment}. */
    public SymmetricBuffer align(long alignment, long bytes) {
        if (!Checks.isPowerOfTwo(alignment)) {
            throw new IllegalArgumentException("align: alignment " + alignment + " is not a power of two");
        }
        long maxAlignment = Emulator.maxAlignment(backend);
        if (maxAlignment > 0 && alignment > maxAlignment) {
            throw new IllegalArgumentException("align: alignment " + alignment + " is larger than the largest alignment "
                    + backend.name() + " supports (" + maxAlignment + " bytes)");
        }
        Checks.positive("align size", bytes);
        return allocate("align(" + alignment + ")", bytes, () -> rocshmem_align(alignment, bytes));
    }

    /** Registers local memory for put/get (rocshmem_buffer_register); not collective. */
    public RegisteredBuffer register(Pointer address, long bytes) {
        requireOpen();
        Objects.requireNonNull(address, "address");
        Checks.positive("register length", bytes);
        long capacity = PointerExtent.bytes(address);
        if (capacity >= 0 && bytes > capacity) {
            throw new IndexOutOfBoundsException("register: " + bytes + " bytes exceed the " + capacity
                    + " bytes the pointer holds from its position");
        }
        int status = rocshmem_buffer_register(address, bytes);
        if (status != 0) {
            throw new RocshmemException("rocshmem_buffer_register(0x" + Long.toHexString(address.address()) + ", "
                    + bytes + ") failed with status " + status + " (overlapping or invalid range?)");
        }
        RegisteredBuffer registered = new RegisteredBuffer(this, address, bytes);
        synchronized (this) {
            registrations.add(registered);
        }
        return registered;
    }

    private SymmetricBuffer allocate(String kind, long bytes, java.util.function.Supplier<Pointer> call) {
        requireOpen();
        Pointer address = call.get();
        if (address == null || address.isNull()) {
            throw new RocshmemException("rocshmem_" + kind.replaceFirst("\\(.*", "") + " of " + bytes
                    + " bytes returned null (symmetric heap exhausted? the emulator's size is ROCSHMEM_HEAP_SIZE)");
        }
        synchronized (this) {
            Allocation allocation = new Allocation(++allocations, kind, address, bytes);
            liveBuffers.put(allocation.sequence, allocation);
            return SymmetricBuffer.owning(this, allocation);
        }
    }

    /** Collective free of a live block; false if it was already freed. */
    boolean free(Allocation allocation) {
        if (allocation.isReleased()) {
            return false;  // closed before, or freed by finalize
        }
        requireOpen();
        if (!allocation.release()) {
            return false;
        }
        synchronized (this) {
            liveBuffers.remove(allocation.sequence);
        }
        // As rocshmem4py: no kernel may still use the block when it goes back to the heap.
        Hip.check(hipDeviceSynchronize(), "hipDeviceSynchronize");
        rocshmem_free(allocation.address);
        return true;
    }

    synchronized void forget(RegisteredBuffer registered) {
        registrations.remove(registered);
    }

    // ---------------------------------------------------------------- teams

    public Team world() {
        requireOpen();
        return world;
    }

    public Team shared() {
        requireOpen();
        return shared;
    }

    long invalidTeamHandle() {
        return invalidTeamHandle;
    }

    /** Wraps the handle a split returned and tracks it; INVALID (or 0) means "not a member". */
    synchronized Team adoptSplit(long handle) {
        if (handle == invalidTeamHandle || handle == 0) {
            return Team.INVALID;
        }
        Team team = new Team(this, handle, Team.Kind.SPLIT);
        liveTeams.put(handle, team);
        return team;
    }

    synchronized boolean forget(Team team) {
        return liveTeams.remove(team.rawHandle(), team);
    }

    // ---------------------------------------------------------------- synchronization

    public void barrierAll() {
        requireOpen();
        rocshmem_barrier_all();
    }

    public void barrierAll(HipStream stream) {
        requireOpen();
        rocshmem_barrier_all_on_stream(stream.handle());
    }

    public void syncAll() {
        requireOpen();
        rocshmem_sync_all();
    }

    public void syncAll(HipStream stream) {
        requireOpen();
        rocshmem_sync_all_on_stream(stream.handle());
    }

    /** Orders this PE's puts to each PE (rocshmem_fence). */
    public void fence() {
        requireOpen();
        rocshmem_fence();
    }

    /** Completes this PE's outstanding puts and non-blocking gets (rocshmem_quiet). */
    public void quiet() {
        requireOpen();
        rocshmem_quiet();
    }

    public void quiet(HipStream stream) {
        requireOpen();
        rocshmem_quiet_on_stream(stream.handle());
    }

    // ---------------------------------------------------------------- finalize

    /** Collective finalize (see the class comment). Throws if already finalized. */
    @Override
    public void close() {
        synchronized (LOCK) {
            requireOpen();
            finalizeNow();
        }
        exitHook.uninstall();
    }

    void requireOpen() {
        if (!open) {
            throw RocshmemStateException.finalized();
        }
    }

    /**
     * The program ends abnormally with the session open (see {@link FinalizeAtExit}): from now on no rocSHMEM call of
     * this process may run, in particular nothing collective. Takes no lock: a blocked close() may hold it.
     */
    void abandon() {
        open = false;
        Emulator.abandonJob(backend);
    }

    /** Finalizes if still open; used by the exit hook. Returns false if there was nothing to do. */
    boolean finalizeIfOpen() {
        synchronized (LOCK) {
            if (!open) {
                return false;
            }
            finalizeNow();
            return true;
        }
    }

    private void finalizeNow() {
        int status = hipDeviceSynchronize();
        if (status != 0) {
            Warnings.log(LOG, System.Logger.Level.WARNING, "hipDeviceSynchronize before finalize returned {0}", status);
        }
        List<Team> teams;
        List<Allocation> leaked;
        List<RegisteredBuffer> registered;
        synchronized (this) {
            teams = new ArrayList<>(liveTeams.values());
            java.util.Collections.reverse(teams); // newest first: a team split from another goes before it
            liveTeams.clear();
            leaked = new ArrayList<>(liveBuffers.values());
            liveBuffers.clear();
            registered = new ArrayList<>(registrations);
            registrations.clear();
        }
        teams.forEach(Team::destroyNow);
        for (Allocation allocation : leaked) {
            if (allocation.release()) {
                Warnings.log(LOG, System.Logger.Level.WARNING, "{0} was not closed; freeing it at finalize.\n{1}",
                        allocation.describe(), LeakReporter.stackTrace(allocation.site));
                rocshmem_free(allocation.address);
            }
        }
        registered.forEach(RegisteredBuffer::unregisterQuietly);
        // No barrier_all here: rocshmem_finalize synchronizes by itself (OpenSHMEM), and a barrier_all would pair
        // with another PE's application barrier if this finalize runs early (exception in a try-with-resources).
        open = false;
        rocshmem_finalize();
        LOG.log(System.Logger.Level.DEBUG, "rocSHMEM finalized on PE {0}", myPe);
    }

    @Override
    public String toString() {
        return "Rocshmem[PE " + myPe + " of " + nPes + ", " + backend + (open ? "" : ", finalized") + "]";
    }
}
