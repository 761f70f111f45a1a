package org.rocshmem.api;

/**
 * rocSHMEM's team pool, {@code ROCSHMEM_MAX_NUM_TEAMS} (40 by default, WORLD and SHARED included, counted per PE):
 * past it a split returns -1 and the library says nothing more. The session knows how many split teams this PE
 * belongs to, so a refused split that reached the limit says so in the exception.
 */
final class TeamLimit {
    static final String VARIABLE = "ROCSHMEM_MAX_NUM_TEAMS";
    /** rocSHMEM's default. */
    static final long DEFAULT = 40;
    /** WORLD and SHARED (rocSHMEM 3.4+ with IPC). */
    static final int RESERVED = 2;

    private TeamLimit() {
    }

    /** Why a split of {@code newTeams} teams beside {@code liveSplits} was refused, if the limit explains it; else "". */
    static String explain(int liveSplits, int newTeams) {
        long limit = limit();
        if (limit < 0 || liveSplits + newTeams <= limit - RESERVED) {
            return "";
        }
        return ": this PE belongs to " + liveSplits + " split team(s), and " + VARIABLE + "=" + limit + " allows "
                + Math.max(0, limit - RESERVED) + " (WORLD and SHARED take " + RESERVED + " of its slots). Close teams"
                + " that are no longer needed, or set " + VARIABLE + " to " + (liveSplits + newTeams + RESERVED)
                + " or more in the environment of every PE";
    }

    /** The limit in force: the variable's value where the environment sets it, else the default; -1 if unreadable. */
    static long limit() {
        String value = System.getenv(VARIABLE);
        if (value == null || value.isBlank()) {
            return DEFAULT;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
