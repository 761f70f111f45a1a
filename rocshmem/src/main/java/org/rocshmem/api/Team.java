package org.rocshmem.api;

import static org.rocshmem.global.rocshmem.ROCSHMEM_TEAM_NUM_CONTEXTS;
import static org.rocshmem.global.rocshmem.rocshmem_barrier;
import static org.rocshmem.global.rocshmem.rocshmem_barrier_on_stream;
import static org.rocshmem.global.rocshmem.rocshmem_team_destroy;
import static org.rocshmem.global.rocshmem.rocshmem_team_my_pe;
import static org.rocshmem.global.rocshmem.rocshmem_team_n_pes;
import static org.rocshmem.global.rocshmem.rocshmem_team_split_2d;
import static org.rocshmem.global.rocshmem.rocshmem_team_split_strided;
import static org.rocshmem.global.rocshmem.rocshmem_team_sync;
import static org.rocshmem.global.rocshmem.rocshmem_team_sync_on_stream;
import static org.rocshmem.global.rocshmem.rocshmem_team_translate_pe;

import org.rocshmem.rocshmem.rocshmem_team_config_t;
import org.rocshmem.api.hip.CallsNative;
import org.rocshmem.api.hip.HipStream;

/**
 * A rocSHMEM team (rocshmem_team_t) and its collectives. {@link Rocshmem#world()} and {@link Rocshmem#shared()}
 * are predefined and never destroyed; teams made by a split are tracked by the session and destroyed by
 * {@link #close()} or, at the latest, at finalize (newest first: creation order is the same on every member PE,
 * unlike handle values, which are per-process pointers), with a warning naming where a forgotten one was created.
 *
 * <p><b>Not a member: {@link #INVALID}, everywhere.</b> Both splits give {@link #INVALID} to the PEs outside the
 * new team, as rocSHMEM gives {@code ROCSHMEM_TEAM_INVALID}. As in rocSHMEM, every collective on it (sync,
 * barrier, broadcast, reductions, alltoall) is a quiet no-op, so SPMD code can call a sub-team's collective on
 * every PE without branching; queries answer like the library does ({@link #myPe()} and {@link #nPes()} give -1,
 * a split of it gives {@link #INVALID} again). {@link #isMember()} tells the two apart.
 *
 * <p>Collectives are collective over the team: every member calls them in the same order with the same
 * arguments. Counts, roots and element types are checked here first, so a mistake throws on the PE that made it
 * (before the call, not as a hang in the library). The typed collectives (broadcast, the reductions and
 * reduce-scatter, host and on-stream) come from the generated {@link TeamCollectives}. rocSHMEM defines no
 * host form of fcollect, collect, typed alltoall or alltoalls; they are not offered (device code has them).
 */
public final class Team extends TeamCollectives implements AutoCloseable, org.rocshmem.api.hip.KernelHandle {
    /** Not a team: what a split gives to PEs outside the new team. Collectives on it are no-ops. */
    public static final Team INVALID = new Team(null, 0, Kind.INVALID);

    enum Kind { WORLD, SHARED, SPLIT, INVALID }

    /**
     * Both halves of {@link #split2d}; either is {@link #INVALID} on a PE that is not a member. Closing it destroys
     * both teams (collective, like {@link Team#close()}: y first, the newer one), so it fits a try-with-resources.
     */
    public record Split2d(Team x, Team y) implements AutoCloseable {
        @Override
        public void close() {
            try {
                y.close();
            } finally {
                x.close();
            }
        }
    }

    /**
     * Team configuration for a split ({@code rocshmem_team_config_t} with {@code ROCSHMEM_TEAM_NUM_CONTEXTS}): the
     * number of contexts the new team should be able to create. rocSHMEM creates team contexts only in device code
     * ({@code rocshmem_wg_team_create_ctx}); the host passes the number on.
     */
    public record Config(int numContexts) {
        public Config {
            if (numContexts < 0) {
                throw new IllegalArgumentException("numContexts must be >= 0, got " + numContexts);
            }
        }
    }

    private final Rocshmem session;
    private final long handle;
    private final Kind kind;
    /** Where a split team was made: printed if it is still alive at finalize. */
    final Throwable site;
    private volatile boolean destroyed;
    /** The team's size, asked once: it never changes, and the collectives' checks need it on every call. */
    private int size = -1;

    Team(Rocshmem session, long handle, Kind kind) {
        this.session = session;
        this.handle = handle;
        this.kind = kind;
        this.site = kind == Kind.SPLIT ? new Throwable("creation site of a team split") : null;
    }

    /** The raw rocshmem_team_t (for the generated bindings); 0 for {@link #INVALID}. */
    public long handle() {
        if (kind == Kind.INVALID) {
            return 0;
        }
        requireUsable();
        return handle;
    }

    /** As a kernel argument: a {@code rocshmem_team_t} (0, ROCSHMEM_TEAM_INVALID, for {@link #INVALID}). */
    @Override
    public String cType() {
        return "rocshmem_team_t";
    }

    @Override
    public int handleBytes() {
        return Long.BYTES;
    }

    @Override
    public long handleWord(int i) {
        return handle();
    }

    /** False only for {@link #INVALID}. */
    public boolean isValid() {
        return kind != Kind.INVALID;
    }

    /** True if this PE belongs to the team (false only for {@link #INVALID}). */
    public boolean isMember() {
        return isValid();
    }

    public boolean isPredefined() {
        return kind == Kind.WORLD || kind == Kind.SHARED;
    }

    public boolean isClosed() {
        return destroyed;
    }

    /** This PE's number within the team; -1 for {@link #INVALID}. */
    @CallsNative("rocshmem_team_my_pe")
    public int myPe() {
        return isValid() ? rocshmem_team_my_pe(handle()) : -1;
    }

    /** Number of PEs in the team; -1 for {@link #INVALID}. */
    @CallsNative("rocshmem_team_n_pes")
    public int nPes() {
        if (!isValid()) {
            return -1;
        }
        long h = handle(); // checks the session and the team first
        if (size < 0) {
            size = rocshmem_team_n_pes(h);
        }
        return size;
    }

    /** The number in {@code destination} of this team's PE {@code pe}; -1 if it is not a member there. */
    @CallsNative("rocshmem_team_translate_pe")
    public int translatePe(int pe, Team destination) {
        if (!isValid() || !destination.isValid()) {
            return -1;
        }
        Checks.pe(pe, nPes());
        return rocshmem_team_translate_pe(handle(), pe, destination.handle());
    }

    /**
     * Collective over this team: a new team of its PEs {@code start, start+stride, ...} ({@code size} of them,
     * numbered in this team). {@link #INVALID} on PEs that are not members.
     */
    public Team splitStrided(int start, int stride, int size) {
        return splitStrided(start, stride, size, null);
    }

    /** {@link #splitStrided(int, int, int)} with a team configuration ({@code null}: the defaults). */
    @CallsNative("rocshmem_team_split_strided")
    public Team splitStrided(int start, int stride, int size, Config config) {
        if (!isValid()) {
            return INVALID;
        }
        int members = nPes();
        if (start < 0 || start >= members || size < 1 || stride < 1 && size > 1
                || (long) start + (long) stride * (size - 1) >= members) {
            throw new IllegalArgumentException("splitStrided(start=" + start + ", stride=" + stride + ", size=" + size
                    + ") does not fit a team of " + members + " PEs");
        }
        long[] created = {session.handles().invalidTeamHandle()};
        int status;
        try (rocshmem_team_config_t native_ = nativeConfig(config)) {
            status = rocshmem_team_split_strided(handle(), start, stride, size, native_, mask(config), created);
        }
        if (status != 0) {
            throw new RocshmemException("rocshmem_team_split_strided(start=" + start + ", stride=" + stride
                    + ", size=" + size + ") on a team of " + members + " PEs failed with status " + status
                    + TeamLimit.explain(session.handles().splitCount(), 1), status);
        }
        return session.handles().adoptSplit(created[0]);
    }

    /** Collective over this team: split into rows of {@code xrange} PEs (x) and columns (y). */
    public Split2d split2d(int xrange) {
        return split2d(xrange, null, null);
    }

    /** {@link #split2d(int)} with a configuration per axis ({@code null}: the defaults). */
    @CallsNative("rocshmem_team_split_2d")
    public Split2d split2d(int xrange, Config xConfig, Config yConfig) {
        if (!isValid()) {
            return new Split2d(INVALID, INVALID);
        }
        Checks.positive("xrange", xrange);
        long[] x = {session.handles().invalidTeamHandle()};
        long[] y = {session.handles().invalidTeamHandle()};
        int status;
        try (rocshmem_team_config_t xc = nativeConfig(xConfig); rocshmem_team_config_t yc = nativeConfig(yConfig)) {
            status = rocshmem_team_split_2d(handle(), xrange, xc, mask(xConfig), x, yc, mask(yConfig), y);
        }
        if (status != 0) {
            throw new RocshmemException("rocshmem_team_split_2d(xrange=" + xrange + ") on a team of " + nPes()
                    + " PEs failed with status " + status + TeamLimit.explain(session.handles().splitCount(), 2), status);
        }
        return new Split2d(session.handles().adoptSplit(x[0]), session.handles().adoptSplit(y[0]));
    }

    private static rocshmem_team_config_t nativeConfig(Config config) {
        return config == null ? null : new rocshmem_team_config_t().num_contexts(config.numContexts());
    }

    private static long mask(Config config) {
        return config == null ? 0 : ROCSHMEM_TEAM_NUM_CONTEXTS;
    }

    // ---------------------------------------------------------------- synchronization

    /** rocshmem_team_sync: every member arrives; no memory ordering. A no-op on {@link #INVALID}. */
    @CallsNative("rocshmem_team_sync")
    public void sync() {
        if (isValid()) {
            rocshmem_team_sync(handle());
        }
    }

    /** Stream-ordered {@link #sync()}. */
    @CallsNative("rocshmem_team_sync_on_stream")
    public void sync(HipStream stream) {
        if (isValid()) {
            rocshmem_team_sync_on_stream(handle(), stream.handle());
        }
    }

    /** rocshmem_barrier: team sync plus completion of this PE's outstanding puts. A no-op on {@link #INVALID}. */
    @CallsNative("rocshmem_barrier")
    public void barrier() {
        if (isValid()) {
            rocshmem_barrier(handle());
        }
    }

    /** Stream-ordered {@link #barrier()}. */
    @CallsNative("rocshmem_barrier_on_stream")
    public void barrier(HipStream stream) {
        if (isValid()) {
            rocshmem_barrier_on_stream(handle(), stream.handle());
        }
    }

    // ---------------------------------------------------------------- untyped stream collectives

    /**
     * rocshmem_alltoallmem_on_stream: block {@code j} of this member's {@code source} goes to block {@code i} of
     * member {@code j}'s {@code destination} (i = this member). Both views hold {@code nPes()} equal blocks; the
     * block size is {@code source.byteSize() / nPes()} bytes.
     */
    @CallsNative("rocshmem_alltoallmem_on_stream")
    public void alltoallmem(HipStream stream, SymmetricArray destination, SymmetricArray source) {
        long team = collectiveHandle();
        if (team == 0) {
            return;
        }
        int members = nPes();
        if (destination.byteSize() != source.byteSize() || source.byteSize() % members != 0) {
            throw new IllegalArgumentException("alltoallmem needs destination and source of the same size, a multiple"
                    + " of the team's " + members + " PEs: destination " + destination + ", source " + source);
        }
        AddressCalls.rocshmem_alltoallmem_on_stream(team, destination.localBase(), source.localBase(),
                source.byteSize() / members, stream.address());
    }

    /**
     * rocshmem_broadcastmem_on_stream: the bytes of {@code source} on team member {@code root} arrive in
     * {@code destination} of every member (same sizes).
     */
    @CallsNative("rocshmem_broadcastmem_on_stream")
    public void broadcastmem(HipStream stream, SymmetricArray destination, SymmetricArray source, int root) {
        long team = collectiveHandle();
        if (team == 0) {
            return;
        }
        checkRoot(root);
        java.util.Objects.requireNonNull(destination, "destination");
        destination.requireSameBytes(source, "source");
        AddressCalls.rocshmem_broadcastmem_on_stream(team, destination.localBase(), source.localBase(),
                source.byteSize(), root, stream.address());
    }

    // ---------------------------------------------------------------- lifecycle

    /** Destroys a split team (rocshmem_team_destroy); a no-op for WORLD, SHARED, INVALID and closed teams. */
    @Override
    public void close() {
        if (!isValid() || isPredefined() || destroyed) {
            return;
        }
        if (session.closingOnException()) {
            destroyed = true; // rocshmem_team_destroy is collective: not on the way out of a failed block
            return;
        }
        session.requireOpen();
        if (session.handles().forget(this)) {
            destroyNow();
        }
    }

    /** Used by close() and by the session's drain at finalize. */
    @CallsNative("rocshmem_team_destroy")
    void destroyNow() {
        destroyed = true;
        rocshmem_team_destroy(handle);
    }

    long rawHandle() {
        return handle;
    }

    private void requireUsable() {
        session.requireOpen();
        if (destroyed) {
            throw new RocshmemStateException("this team was destroyed (close() or finalize)");
        }
    }

    // ---------------------------------------------------------------- hooks of the generated collectives

    @Override
    long collectiveHandle() {
        return isValid() ? handle() : 0;
    }

    @Override
    long contextFor(SymmetricArray view) {
        Context ctx = view.context;
        return ctx != null ? ctx.address() : session.defaultContext().address();
    }

    @Override
    void checkRoot(int root) {
        int members = nPes();
        if (root < 0 || root >= members) {
            throw new IndexOutOfBoundsException("root " + root + " is outside the team's PEs [0, " + members + ")");
        }
    }

    @Override
    void checkSameShape(SymmetricArray destination, SymmetricArray source) {
        checkSameType(destination, source);
        if (destination.length != source.length) {
            throw new IllegalArgumentException("destination and source differ in length: " + destination + " and "
                    + source);
        }
    }

    @Override
    void checkReduceCounts(String what, SymmetricArray destination, SymmetricArray source, boolean scatter) {
        checkSameType(destination, source);
        if (!scatter && destination.length != source.length) {
            throw new IllegalArgumentException(what + ": destination and source differ in length: " + destination
                    + " and " + source);
        }
        if (scatter) {
            long members = nPes();
            if (source.length != destination.length * members) {
                throw new IllegalArgumentException(what + ": source must hold one block of destination.length()="
                        + destination.length + " elements per team PE (" + members + " blocks), but has "
                        + source.length + " elements");
            }
        }
    }

    @Override
    int count(SymmetricArray view) {
        if (view.length > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("rocSHMEM collectives take an int count; " + view + " is too long");
        }
        return (int) view.length;
    }

    @Override
    UnsupportedOperationException unsupportedType(String what, SymmetricArray view) {
        return new UnsupportedOperationException("rocSHMEM defines no host " + what + " for C type "
                + view.type.cName() + " (" + view + "); see the C types listed for it on the view class");
    }

    @Override
    void checkStatus(String what, int status) {
        if (status != 0) {
            throw new RocshmemException(what + " on " + this + " failed with status " + status, status);
        }
    }

    private static void checkSameType(SymmetricArray destination, SymmetricArray source) {
        if (destination.type != source.type) {
            throw new IllegalArgumentException("destination and source differ in C type: " + destination.type.cName()
                    + " and " + source.type.cName());
        }
    }

    @Override
    public String toString() {
        return kind == Kind.SPLIT ? "Team[0x" + Long.toHexString(handle) + (destroyed ? ", destroyed" : "") + "]"
                : "Team[" + kind + "]";
    }
}
