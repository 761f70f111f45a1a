package org.rocshmem.api;

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

import java.util.Optional;

/**
 * A rocSHMEM team (rocshmem_team_t). {@link Rocshmem#world()} and {@link Rocshmem#shared()} are predefined and
 * never destroyed; teams made by a split are tracked by the session and destroyed by {@link #close()} or, at the
 * latest, at finalize (newest first: creation order is the same on every member PE, unlike handle values, which are
 * per-process pointers; rocshmem4py's ascending-handle order only agrees across PEs by chance).
 * {@link #INVALID} stands for "this PE is not a member".
 */
public final class Team implements AutoCloseable {
    /** Not a team: what a split gives to PEs outside the new team. Every query on it throws. */
    public static final Team INVALID = new Team(null, 0, Kind.INVALID);

    enum Kind { WORLD, SHARED, SPLIT, INVALID }

    /** Both halves of {@link #split2d}; either may be {@link #INVALID} on a PE that is not a member. */
    public record Split2d(Team x, Team y) {
    }

    private final Rocshmem session;
    private final long handle;
    private final Kind kind;
    private volatile boolean destroyed;

    Team(Rocshmem session, long handle, Kind kind) {
        this.session = session;
        this.handle = handle;
        this.kind = kind;
    }

    /** The raw rocshmem_team_t (for the generated bindings). */
    public long handle() {
        requireUsable();
        return handle;
    }

    public boolean isValid() {
        return kind != Kind.INVALID;
    }

    public boolean isPredefined() {
        return kind == Kind.WORLD || kind == Kind.SHARED;
    }

    public boolean isClosed() {
        return destroyed;
    }

    /** This PE's number within the team. */
    public int myPe() {
        return rocshmem_team_my_pe(handle());
    }

    public int nPes() {
        return rocshmem_team_n_pes(handle());
    }

    /** The number in {@code destination} of this team's PE {@code pe}; -1 if it is not a member there. */
    public int translatePe(int pe, Team destination) {
        Checks.pe(pe, nPes());
        return rocshmem_team_translate_pe(handle(), pe, destination.handle());
    }

    /**
     * Collective over this team: a new team of PEs {@code start, start+stride, ...} ({@code size} of them, numbered
     * in this team). Empty on PEs that are not members.
     */
    public Optional<Team> splitStrided(int start, int stride, int size) {
        long[] created = {session.invalidTeamHandle()};
        int status = rocshmem_team_split_strided(handle(), start, stride, size, null, 0, created);
        if (status != 0) {
            throw new RocshmemException("rocshmem_team_split_strided(start=" + start + ", stride=" + stride
                    + ", size=" + size + ") on a team of " + nPes() + " PEs failed with status " + status);
        }
        Team team = session.adoptSplit(created[0]);
        return team.isValid() ? Optional.of(team) : Optional.empty();
    }

    /** Collective over this team: split into rows of {@code xrange} PEs (x) and columns (y). */
    public Split2d split2d(int xrange) {
        Checks.positive("xrange", xrange);
        long[] x = {session.invalidTeamHandle()};
        long[] y = {session.invalidTeamHandle()};
        int status = rocshmem_team_split_2d(handle(), xrange, null, 0, x, null, 0, y);
        if (status != 0) {
            throw new RocshmemException("rocshmem_team_split_2d(xrange=" + xrange + ") on a team of " + nPes()
                    + " PEs failed with status " + status);
        }
        return new Split2d(session.adoptSplit(x[0]), session.adoptSplit(y[0]));
    }

    /** rocshmem_team_sync: all team members arrive; no memory ordering. */
    public void sync() {
        rocshmem_team_sync(handle());
    }

    public void sync(HipStream stream) {
        rocshmem_team_sync_on_stream(handle(), stream.handle());
    }

    /** rocshmem_barrier: team_sync plus completion of this PE's outstanding puts. */
    public void barrier() {
        rocshmem_barrier(handle());
    }

    public void barrier(HipStream stream) {
        rocshmem_barrier_on_stream(handle(), stream.handle());
    }

    /** Destroys a split team (rocshmem_team_destroy); a no-op for WORLD, SHARED, INVALID and closed teams. */
    @Override
    public void close() {
        if (!isValid() || isPredefined() || destroyed) {
            return;
        }
        session.requireOpen();
        if (session.forget(this)) {
            destroyNow();
        }
    }

    /** Used by close() and by the session's drain at finalize. */
    void destroyNow() {
        destroyed = true;
        rocshmem_team_destroy(handle);
    }

    long rawHandle() {
        return handle;
    }

    private void requireUsable() {
        if (kind == Kind.INVALID) {
            throw new RocshmemStateException("Team.INVALID is not a team (this PE is not a member of that split)");
        }
        session.requireOpen();
        if (destroyed) {
            throw new RocshmemStateException("this team was destroyed (close() or finalize)");
        }
    }

    @Override
    public String toString() {
        return kind == Kind.SPLIT ? "Team[0x" + Long.toHexString(handle) + (destroyed ? ", destroyed" : "") + "]"
                : "Team[" + kind + "]";
    }
}
