package org.rocshmem.api;

import static org.rocshmem.global.rocshmem.rocshmem_ctx_create;
import static org.rocshmem.global.rocshmem.rocshmem_ctx_destroy;
import static org.rocshmem.global.rocshmem.rocshmem_ctx_fence;
import static org.rocshmem.global.rocshmem.rocshmem_ctx_quiet;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import org.bytedeco.javacpp.Pointer;
import org.rocshmem.rocshmem.rocshmem_ctx_t;
import org.rocshmem.api.hip.CallsNative;

/**
 * A rocSHMEM communication context ({@code rocshmem_ctx_t}): an independent stream of one-sided operations whose
 * completion ({@link #quiet()}) and ordering ({@link #fence()}) are separate from every other context's. Typed
 * views use a context through {@code view.withContext(ctx)}; {@link SymmetricArray#putmem} and friends take it the
 * same way.
 *
 * <p>Created by {@link Rocshmem#createContext}; {@link #close()} destroys it (rocshmem_ctx_destroy, idempotent).
 * The session tracks live contexts and destroys forgotten ones at finalize, with a warning naming where each was
 * created. The session's own {@linkplain Rocshmem#defaultContext() default context}, which the host-side
 * collectives need because rocSHMEM defines them only in ctx form, is closed by finalize alone.
 *
 * <p>Not available from the host: team-scoped contexts ({@code rocshmem_wg_team_create_ctx} is device-only), so
 * every host context belongs to the world team.
 */
public final class Context implements AutoCloseable, org.rocshmem.api.hip.KernelHandle {
    private final Rocshmem session;
    /** The 16-byte context value the library filled in; passed by value to every ctx call. */
    private final rocshmem_ctx_t handle;
    private final long handleAddress;
    private final Set<ContextOption> options;
    private final boolean sessionDefault;
    /** Where the context was created: printed if it is still open at finalize. */
    final Throwable site;
    private volatile boolean closed;

    private Context(Rocshmem session, rocshmem_ctx_t handle, Set<ContextOption> options, boolean sessionDefault) {
        this.session = session;
        this.handle = handle;
        this.handleAddress = handle.address();
        this.options = Collections.unmodifiableSet(options.isEmpty() ? EnumSet.noneOf(ContextOption.class)
                : EnumSet.copyOf(options));
        this.sessionDefault = sessionDefault;
        this.site = new Throwable("creation site of a rocSHMEM context " + this.options);
    }

    @CallsNative("rocshmem_ctx_create")
    static Context create(Rocshmem session, Set<ContextOption> options, boolean sessionDefault) {
        rocshmem_ctx_t handle = new rocshmem_ctx_t();
        int status = rocshmem_ctx_create(ContextOption.bits(options), handle);
        if (status != 0) {
            handle.close();
            throw new RocshmemException("rocshmem_ctx_create(" + options + ") failed with status " + status
                    + " (too many contexts? rocSHMEM limits host contexts with ROCSHMEM_MAX_NUM_HOST_CONTEXTS)",
                    status);
        }
        return new Context(session, handle, options, sessionDefault);
    }

    public Set<ContextOption> options() {
        return options;
    }

    public boolean isClosed() {
        return closed;
    }

    /** True for the session's own context (see the class comment). */
    public boolean isSessionDefault() {
        return sessionDefault;
    }

    /** Orders this context's puts to each PE: those before the fence arrive before those after it. */
    @CallsNative("rocshmem_ctx_fence")
    public void fence() {
        requireUsable();
        rocshmem_ctx_fence(handle);
    }

    /** Completes every put and non-blocking get issued through this context. */
    @CallsNative("rocshmem_ctx_quiet")
    public void quiet() {
        requireUsable();
        rocshmem_ctx_quiet(handle);
    }

    /** Destroys the context; a no-op when already closed. The session's default context is closed by finalize. */
    @Override
    public void close() {
        if (sessionDefault) {
            throw new UnsupportedOperationException("the session's default context is destroyed by finalize");
        }
        if (session.handles().forget(this) && session.isOpen()) {
            destroyNow(); // after the session ended (finalize, or left on an exception) there is nothing to destroy
        }
    }

    /** Used by close() and by the session at finalize. */
    @CallsNative("rocshmem_ctx_destroy")
    void destroyNow() {
        if (closed) {
            return;
        }
        closed = true;
        rocshmem_ctx_destroy(handle);
        handle.close();
    }

    /** The address of the context value, for the typed views' native calls; checks that it is still usable. */
    long address() {
        if (closed) {
            throw closedError();
        }
        session.requireOpen();
        return handleAddress;
    }

    /** The words of the handle as a kernel receives it, once read. */
    private long[] handleWords;

    /** As a kernel argument: its {@code rocshmem_ctx_t} by value (two words). */
    @Override
    public String cType() {
        return "rocshmem_ctx_t";
    }

    @Override
    public int handleBytes() {
        return 16;
    }

    @Override
    public long handleWord(int i) {
        rocshmem_ctx_t value = handle(); // throws once destroyed or after finalize
        long[] words = handleWords;
        if (words == null) { // read once: a launch allocates nothing
            words = new long[] {addressOf(value.ctx_opaque()), addressOf(value.team_opaque())};
            handleWords = words;
        }
        return words[i];
    }

    private static long addressOf(Pointer p) {
        return p == null ? 0 : p.address();
    }

    rocshmem_ctx_t handle() {
        requireUsable();
        return handle;
    }

    private void requireUsable() {
        if (closed) {
            throw closedError();
        }
        session.requireOpen();
    }

    private RocshmemStateException closedError() {
        return new RocshmemStateException("this rocSHMEM context was closed (" + this + ")");
    }

    @Override
    public String toString() {
        return "Context[" + (sessionDefault ? "session default" : options.isEmpty() ? "no options" : options.toString())
                + (closed ? ", closed" : "") + "]";
    }
}
