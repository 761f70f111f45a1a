package org.rocshmem.api;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The session's split teams and contexts: native handles that finalize must destroy when the program did not.
 * Both are kept in creation order. Splits are collective and happen in program order, so every member PE sees the
 * same order (handle values are pointers and differ between PEs); finalize destroys teams newest first, because a
 * team split from another must go before it.
 */
final class LiveHandles {
    private static final System.Logger LOG = System.getLogger(Rocshmem.class.getName());

    private final Rocshmem session;
    private final long invalidTeamHandle;
    private final Map<Long, Team> teams = new LinkedHashMap<>();
    private final Map<Context, Boolean> contexts = new LinkedHashMap<>();
    /** The context of the host collectives, which rocSHMEM defines only in ctx form; created on first use. */
    private volatile Context sessionContext;

    LiveHandles(Rocshmem session, long invalidTeamHandle) {
        this.session = session;
        this.invalidTeamHandle = invalidTeamHandle;
    }

    long invalidTeamHandle() {
        return invalidTeamHandle;
    }

    /** Wraps the handle a split returned and tracks it; INVALID (or 0) means "not a member". */
    synchronized Team adoptSplit(long handle) {
        if (handle == invalidTeamHandle || handle == 0) {
            return Team.INVALID;
        }
        Team team = new Team(session, handle, Team.Kind.SPLIT);
        teams.put(handle, team);
        return team;
    }

    /** The split teams this PE belongs to (rocSHMEM counts its team pool per PE). */
    synchronized int splitCount() {
        return teams.size();
    }

    synchronized boolean forget(Team team) {
        return teams.remove(team.rawHandle(), team);
    }

    /** Creates a context for the program (createContext) once the host-context pool has room for it. */
    synchronized Context createTracked(java.util.Set<ContextOption> options) {
        boolean sessionSlot = sessionContext != null || HostContextProvisioning.reservesSessionContext();
        HostContextLimit.require(1 + contexts.size() + (sessionSlot ? 1 : 0),
                "a context for createContext(" + options + ")");
        Context context = Context.create(session, options, false);
        contexts.put(context, Boolean.TRUE);
        return context;
    }

    synchronized boolean forget(Context context) {
        return contexts.remove(context) != null;
    }

    Context sessionContext() {
        Context existing = sessionContext; // the collectives ask on every call: no lock once it exists
        if (existing != null) {
            return existing;
        }
        synchronized (this) {
            if (sessionContext == null) {
                HostContextLimit.require(1 + contexts.size(), "the session's context for the host"
                        + " collectives on views without a context (rocSHMEM defines them only in ctx form; give the"
                        + " destination view a context with withContext(ctx) to use one of yours)");
                sessionContext = Context.create(session, EnumSet.noneOf(ContextOption.class), true);
            }
            return sessionContext;
        }
    }

    /**
     * Finalize: destroys the contexts the program did not close, then the session's context, then the teams it did
     * not close (newest first), each leftover with a warning naming its creation site.
     */
    void destroyLeftovers() {
        List<Context> leftContexts;
        List<Team> leftTeams;
        Context ownContext;
        synchronized (this) {
            leftContexts = new ArrayList<>(contexts.keySet());
            contexts.clear();
            ownContext = sessionContext;
            leftTeams = new ArrayList<>(teams.values());
            Collections.reverse(leftTeams);
            teams.clear();
        }
        for (Context context : leftContexts) {
            Warnings.log(LOG, System.Logger.Level.WARNING, "{0} was not closed; destroying it at finalize ({1})",
                    context, LeakReporter.site(context.site));
            LeakReporter.debugTrace(LOG, context.site);
            context.destroyNow();
        }
        if (ownContext != null) {
            ownContext.destroyNow();
        }
        for (Team team : leftTeams) {
            Warnings.log(LOG, System.Logger.Level.WARNING, "{0} was not closed; destroying it at finalize ({1})",
                    team, LeakReporter.site(team.site));
            LeakReporter.debugTrace(LOG, team.site);
            team.destroyNow();
        }
    }
}
