package org.rocshmem.api;

import static org.rocshmem.global.hip.hipDeviceSynchronize;
import static org.rocshmem.global.rocshmem.*;

import java.util.Objects;
import org.bytedeco.javacpp.Pointer;
import org.rocshmem.api.hip.CallsNative;
import org.rocshmem.api.hip.DeviceRegion;
import org.rocshmem.api.hip.DeviceSelection;
import org.rocshmem.api.hip.HipModule;
import org.rocshmem.api.hip.HipStream;

/**
 * The rocSHMEM session of this process: {@code try (Rocshmem shmem = Rocshmem.init()) { ... }}.
 *
 * <p>Why a session object and not static calls: rocSHMEM state is per process, so there is at most one session,
 * but making it an {@link AutoCloseable} value gives finalize a natural, visible place (try-with-resources), ties
 * buffers and teams to the session that made them (so use after finalize is detected in Java, not by a crash), and
 * keeps the tracking of leftovers in one object. {@link #current()} reaches it from anywhere.
 *
 * <p>Init: {@link #init()} finds the job from the launch environment (launcher, torchrun, mpirun, srun) or leaves
 * it to rocSHMEM; {@link #init(Bootstrap)} takes an explicit {@link Bootstrap} strategy (your own unique-id exchange,
 * an id you already hold, ...). Every path first pins the HIP device from LOCAL_RANK / OMPI_COMM_WORLD_LOCAL_RANK /
 * SLURM_LOCALID.
 *
 * <p>An exception that leaves a try-with-resources block must reach the user, so closing there is never collective:
 * when javac's exceptional close path calls {@code close()} on the session, a buffer or a team (recognised from the
 * calling method's bytecode), this PE leaves the job without finalize, as the shutdown hook does for an abnormal
 * end. The other PEs stop at their next wait or collective with a message naming this PE (on the emulator; on a GPU
 * the launcher or mpirun ends them when this process exits non-zero), and the exception propagates with its stack
 * trace as the first report of the failure.
 *
 * <p>{@link #close()} finalizes, collectively: device sync, destroy tracked teams (newest first, the same order on every PE), free
 * leaked buffers (each logged with its allocation site), rocshmem_finalize (whose implicit barrier is the only
 * synchronization). A JVM shutdown hook does the same, bounded in time, if the program forgot, and nothing collective
 * if the program ends abnormally ({@link FinalizeAtExit}). rocSHMEM cannot be initialized again after finalize.
 */
public final class Rocshmem extends LibraryControl implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Rocshmem.class.getName());
    private static final Object LOCK = new Object();
    /** The open session, or the finalized one (kept to say "finalized" rather than "not initialized"). */
    private static Rocshmem session;

    private final int myPe;
    private final int nPes;
    private final Backend backend;
    private final Team world;
    private final Team shared;
    private final FinalizeAtExit exitHook;
    private volatile boolean open = true;
    /** This PE left the job because an exception propagated out of a try-with-resources block (see close()). */
    private volatile boolean leftOnException;
    private final SymmetricHeap heap = new SymmetricHeap(this);
    private final LiveHandles handles;

    private Rocshmem(Backend backend) {
        this.myPe = rocshmem_my_pe();
        this.nPes = rocshmem_n_pes();
        this.backend = backend;
        this.handles = new LiveHandles(this, ROCSHMEM_TEAM_INVALID());
        this.world = new Team(this, ROCSHMEM_TEAM_WORLD(), Team.Kind.WORLD);
        this.shared = new Team(this, ROCSHMEM_TEAM_SHARED(), Team.Kind.SHARED);
        this.exitHook = new FinalizeAtExit(this);
    }

    // ---------------------------------------------------------------- init

    /** Initializes with {@link Bootstrap#detect()}: the launch environment's bootstrap if any, else rocSHMEM's own. */
    @CallsNative({"rocshmem_get_uniqueid", "rocshmem_set_attr_uniqueid_args", "rocshmem_init_attr", "rocshmem_init",
        "rocshmem_my_pe", "rocshmem_n_pes"})
    public static Rocshmem init() {
        return init(Bootstrap.detect());
    }

    /** Initializes rocSHMEM with the given bootstrap strategy. Collective over the job's PEs. */
    @CallsNative({"rocshmem_get_uniqueid", "rocshmem_set_attr_uniqueid_args", "rocshmem_init_attr", "rocshmem_init",
        "rocshmem_my_pe", "rocshmem_n_pes"})
    public static Rocshmem init(Bootstrap bootstrap) {
        Objects.requireNonNull(bootstrap, "bootstrap");
        return open(bootstrap);
    }

    /**
     * Initializes as {@link #init()} with the given options, e.g. {@code Rocshmem.init(InitOptions.hostContexts(8))}
     * for room for 8 contexts of the program's own (rocSHMEM reads this once, when its library loads: give it to the
     * first init, before any other rocSHMEM call).
     */
    @CallsNative({"rocshmem_get_uniqueid", "rocshmem_set_attr_uniqueid_args", "rocshmem_init_attr", "rocshmem_init",
        "rocshmem_my_pe", "rocshmem_n_pes"})
    public static Rocshmem init(InitOptions options) {
        Objects.requireNonNull(options, "options");
        return init(Bootstrap.detect(), options);
    }

    /** {@link #init(Bootstrap)} with the given options (see {@link #init(InitOptions)}). */
    @CallsNative({"rocshmem_get_uniqueid", "rocshmem_set_attr_uniqueid_args", "rocshmem_init_attr", "rocshmem_init",
        "rocshmem_my_pe", "rocshmem_n_pes"})
    public static Rocshmem init(Bootstrap bootstrap, InitOptions options) {
        Objects.requireNonNull(bootstrap, "bootstrap");
        Objects.requireNonNull(options, "options");
        HostContextProvisioning.provision(options.hostContexts());
        return open(bootstrap);
    }

    /**
     * Initializes as {@link #init()} and requires at least the {@code requested} thread level, OpenSHMEM's init_thread
     * contract. rocSHMEM defines {@code rocshmem_init_thread} only in MPI builds, with an {@code MPI_Comm} (and
     * deprecates it); every build answers {@code rocshmem_query_thread}, which this checks after init. rocSHMEM's host
     * side provides {@link ThreadLevel#MULTIPLE}, so every request is met there; should a library provide less, every
     * PE finalizes again (they all read the same level) and throws.
     *
     * @throws RocshmemException naming both levels if the library provides less than {@code requested}
     */
    @CallsNative({"rocshmem_get_uniqueid", "rocshmem_set_attr_uniqueid_args", "rocshmem_init_attr", "rocshmem_init",
        "rocshmem_my_pe", "rocshmem_n_pes", "rocshmem_query_thread"})
    public static Rocshmem init(ThreadLevel requested) {
        return init(Bootstrap.detect(), requested);
    }

    /** {@link #init(Bootstrap)} with the thread-level requirement of {@link #init(ThreadLevel)}. */
    @CallsNative({"rocshmem_get_uniqueid", "rocshmem_set_attr_uniqueid_args", "rocshmem_init_attr", "rocshmem_init",
        "rocshmem_my_pe", "rocshmem_n_pes", "rocshmem_query_thread"})
    public static Rocshmem init(Bootstrap bootstrap, ThreadLevel requested) {
        Objects.requireNonNull(requested, "requested");
        Rocshmem shmem = init(bootstrap);
        ThreadLevel provided = shmem.threadLevel();
        try {
            provided.requireAtLeast(requested);
        } catch (RocshmemException e) {
            shmem.close();
            throw e;
        }
        return shmem;
    }

    /** A fresh 128-byte unique id (rocshmem_get_uniqueid); needs no initialized session. */
    @CallsNative("rocshmem_get_uniqueid")
    public static byte[] createUniqueId() {
        NativeLibraries.loadRocshmem();
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

    private static Rocshmem open(Bootstrap bootstrap) {
        synchronized (LOCK) {
            if (session != null) {
                throw session.open ? new RocshmemStateException("rocSHMEM is already initialized (PE " + session.myPe
                        + " of " + session.nPes + "); call close() before initializing again")
                        : RocshmemStateException.finalized();
            }
            Backend backend = detectBackend();  // loads the natives; a constant query, valid before init
            DeviceSelection.fromEnvironment(System.getenv(), backend.emulator());
            InitFailure.run(bootstrap::initialize, backend);
            Rocshmem opened = new Rocshmem(backend);
            if (bootstrap.knowsRank() && (opened.myPe != bootstrap.rank() || opened.nPes != bootstrap.nranks())) {
                throw new RocshmemException("rocSHMEM initialized as PE " + opened.myPe + " of " + opened.nPes
                        + " but rank " + bootstrap.rank() + " of " + bootstrap.nranks() + " was requested");
            }
            session = opened;
            opened.exitHook.install();
            LOG.log(System.Logger.Level.DEBUG, "rocSHMEM initialized ({0}): PE {1} of {2} on {3}", bootstrap,
                    opened.myPe, opened.nPes, opened.backend);
            return opened;
        }
    }

    /** The variant is the one that loaded (from the library's path), never just what was asked for. */
    private static Backend detectBackend() {
        NativeLibraries.Loaded loaded = NativeLibraries.loadRocshmem();
        if (!loaded.variant().equals(NativeLibraries.requestedVariant())) {
            Warnings.log(LOG, System.Logger.Level.WARNING, "native variant {0} was requested but {1} loaded (the only"
                    + " native jar on the class path); running on {1}", NativeLibraries.requestedVariant(),
                    loaded.variant());
        }
        return new Backend(LibraryInfo.query().name(), loaded.kind());
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

    /** n_pes without the state check, for views that check on every call anyway. */
    @Override
    int nPesUnchecked() {
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
    @CallsNative("rocshmem_malloc")
    public SymmetricBuffer malloc(long bytes) {
        return heap.malloc(bytes);
    }

    /** Collective rocshmem_calloc: {@code count * elementSize} zeroed bytes. */
    @CallsNative("rocshmem_calloc")
    public SymmetricBuffer calloc(long count, long elementSize) {
        return heap.calloc(count, elementSize);
    }

    /** Collective rocshmem_align: {@code bytes} at an address that is a multiple of {@code alignment}. */
    @CallsNative("rocshmem_align")
    public SymmetricBuffer align(long alignment, long bytes) {
        return heap.align(alignment, bytes, backend);
    }

    /** Registers local memory for put/get (rocshmem_buffer_register); not collective. */
    @CallsNative("rocshmem_buffer_register")
    public RegisteredBuffer register(Pointer address, long bytes) {
        requireOpen();
        return heap.register(address, bytes);
    }

    /**
     * Registers the bytes of a direct ByteBuffer from its position to its limit (rocshmem_buffer_register), e.g. to
     * use it with {@link SymmetricArray#putmem(int, RegisteredBuffer)}; not collective. Keep the buffer reachable
     * until the registration is closed: it owns the memory.
     */
    @CallsNative("rocshmem_buffer_register")
    public RegisteredBuffer register(java.nio.ByteBuffer buffer) {
        Pointer start = LocalMemory.of(buffer, "register: the buffer");
        RegisteredBuffer registered = register(start, buffer.remaining());
        return buffer.isReadOnly() ? registered.readOnly() : registered;
    }

    /**
     * Registers device memory of known length (a {@link org.rocshmem.api.hip.DeviceBuffer} or
     * {@link org.rocshmem.api.hip.DeviceMemory}, or any other {@link DeviceRegion}); not collective.
     */
    @CallsNative("rocshmem_buffer_register")
    public RegisteredBuffer register(DeviceRegion region) {
        Pointer start = LocalMemory.of(region);
        return register(start, start.capacity());
    }

    /**
     * Makes externally allocated device memory symmetric (rocshmem_buffer_register_symmetric), collectively: every
     * PE registers a block of the same size. The returned buffer addresses it like any symmetric allocation; its
     * close() unregisters it (rocshmem_buffer_unregister_symmetric) and leaves the memory to its owner. Needs memory
     * the library can map into its peers (HIP virtual memory on a GPU); the CPU emulator has none and refuses.
     */
    @CallsNative({"rocshmem_buffer_register_symmetric", "rocshmem_buffer_unregister_symmetric"})
    public SymmetricBuffer registerSymmetric(Pointer address, long bytes) {
        return heap.registerSymmetric(address, bytes);
    }

    /** Unregisters every local buffer registered with {@link #register} at once (rocshmem_buffer_unregister_all). */
    @CallsNative("rocshmem_buffer_unregister_all")
    public void unregisterAll() {
        requireOpen();
        heap.unregisterAll();
    }

    /** The memory bookkeeping, for the buffers' close(). */
    SymmetricHeap heap() {
        return heap;
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

    /** The split teams and contexts finalize must destroy if the program did not. */
    LiveHandles handles() {
        return handles;
    }

    // ---------------------------------------------------------------- contexts

    /**
     * Creates a communication context (rocshmem_ctx_create) with the given options; close it when done. Typed views
     * use it through {@code view.withContext(ctx)}.
     *
     * <p>Host contexts come from a pool of {@code ROCSHMEM_MAX_NUM_HOST_CONTEXTS}, and past it the library does not
     * fail but asserts or corrupts memory. Unless the environment sets it, init sizes the pool for rocSHMEM's and the
     * session's own contexts plus 4 of the program's ({@link InitOptions#hostContexts(int)} asks for more). A context
     * beyond the pool throws a {@link RocshmemException} naming the variable and how many contexts are in use.
     */
    @CallsNative("rocshmem_ctx_create")
    public Context createContext(ContextOption... options) {
        Objects.requireNonNull(options, "options");
        java.util.Set<ContextOption> set = java.util.EnumSet.noneOf(ContextOption.class);
        set.addAll(java.util.Arrays.asList(options));
        return createContext(set);
    }

    @CallsNative("rocshmem_ctx_create")
    public Context createContext(java.util.Set<ContextOption> options) {
        requireOpen();
        Objects.requireNonNull(options, "options");
        return handles.createTracked(options);
    }

    /**
     * The session's own context, on which the host collectives run when their destination view has no context
     * (rocSHMEM defines the host broadcast and reductions only in ctx form). Created with the session's first use
     * of it and destroyed by finalize; {@link Context#close()} refuses it. Init provisions its slot of the library's
     * host context pool ({@code ROCSHMEM_MAX_NUM_HOST_CONTEXTS}) unless the environment sets the pool; then it counts
     * in that value, and the API refuses, naming it, rather than exceed the pool
     * (see {@link #createContext(ContextOption...)}).
     */
    @CallsNative("rocshmem_ctx_create")
    public Context defaultContext() {
        requireOpen();
        return handles.sessionContext();
    }

    // ---------------------------------------------------------------- synchronization

    @CallsNative("rocshmem_barrier_all")
    public void barrierAll() {
        requireOpen();
        rocshmem_barrier_all();
    }

    @CallsNative("rocshmem_barrier_all_on_stream")
    public void barrierAll(HipStream stream) {
        requireOpen();
        rocshmem_barrier_all_on_stream(stream.handle());
    }

    @CallsNative("rocshmem_sync_all")
    public void syncAll() {
        requireOpen();
        rocshmem_sync_all();
    }

    @CallsNative("rocshmem_sync_all_on_stream")
    public void syncAll(HipStream stream) {
        requireOpen();
        rocshmem_sync_all_on_stream(stream.handle());
    }

    /** Orders this PE's puts to each PE (rocshmem_fence). */
    @CallsNative("rocshmem_fence")
    public void fence() {
        requireOpen();
        rocshmem_fence();
    }

    /** Completes this PE's outstanding puts and non-blocking gets (rocshmem_quiet). */
    @CallsNative("rocshmem_quiet")
    public void quiet() {
        requireOpen();
        rocshmem_quiet();
    }

    @CallsNative("rocshmem_quiet_on_stream")
    public void quiet(HipStream stream) {
        requireOpen();
        rocshmem_quiet_on_stream(stream.handle());
    }

    // ---------------------------------------------------------------- kernels (the library queries: LibraryControl)

    /**
     * Lets the kernels of {@code module} call rocSHMEM (rocshmem_hipmodule_init: the code object's rocSHMEM device
     * globals get this session's state). Call it once per loaded module, before the first launch of such a kernel.
     * The library records it (the module knows nothing of rocSHMEM); launching a kernel that uses rocSHMEM from a
     * module it did not prepare throws, naming this call (on the emulator, whose code object says which kernels do).
     */
    @CallsNative("rocshmem_hipmodule_init")
    public void initModule(HipModule module) {
        initModule(module, null);
    }

    /** {@link #initModule(HipModule)}, stream-ordered on {@code stream} (graph compatible); null for none. */
    @CallsNative("rocshmem_hipmodule_init")
    public void initModule(HipModule module, HipStream stream) {
        requireOpen();
        Objects.requireNonNull(module, "module");
        int status = rocshmem_hipmodule_init(module.handle(), stream == null ? null : stream.handle());
        if (status != 0) {
            throw new RocshmemException("rocshmem_hipmodule_init(" + module.source() + ") returned " + status, status);
        }
    }

    /** What the library says about itself; valid before init (constant queries). */
    @CallsNative({"rocshmem_info_get_name", "rocshmem_info_get_version", "rocshmem_vendor_get_version_info"})
    public static LibraryInfo libraryInfo() {
        NativeLibraries.loadRocshmem();
        return LibraryInfo.query();
    }

    // ---------------------------------------------------------------- finalize

    /** Collective finalize (see the class comment). A no-op when already finalized, like every close() here. */
    @CallsNative({"rocshmem_finalize", "rocshmem_buffer_unregister", "rocshmem_free", "rocshmem_team_destroy",
        "rocshmem_ctx_destroy"})
    @Override
    public void close() {
        synchronized (LOCK) {
            if (!open || closingOnException()) {
                return;
            }
            finalizeNow();
        }
        exitHook.uninstall();
    }

    /**
     * Whether a close() is to make no collective call because an exception is leaving a try-with-resources block
     * ({@link ExceptionalClose}); the first such close leaves the job ({@link #leaveOnException}).
     */
    boolean closingOnException() {
        if (leftOnException) {
            return true;
        }
        if (!open || !ExceptionalClose.inProgress()) {
            return false;
        }
        leaveOnException();
        return true;
    }

    /** Abandons the session without any collective call, so that the propagating exception is what the user sees. */
    private void leaveOnException() {
        leftOnException = true;
        LOG.log(System.Logger.Level.DEBUG, "PE {0}: an exception leaves a try-with-resources block; leaving the job"
                + " without finalize", myPe);
        abandon();
    }

    @Override
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
        handles.destroyLeftovers();
        heap.releaseLeftovers();
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
