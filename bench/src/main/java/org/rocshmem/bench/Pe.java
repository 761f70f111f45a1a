package org.rocshmem.bench;

import org.rocshmem.api.Rocshmem;

/**
 * The rocSHMEM session of this PE's JVM, opened once by {@link BenchMain} before JMH starts and shared by every
 * benchmark state (JMH runs in this JVM: forks(0)). Every PE runs the same plan, so the collective set-up calls
 * of the states (calloc, free, barriers) pair up across PEs.
 */
public final class Pe {
    private static volatile Rocshmem session;

    private Pe() {
    }

    static void open(Rocshmem shmem) {
        session = shmem;
    }

    public static Rocshmem session() {
        Rocshmem s = session;
        if (s == null) {
            throw new IllegalStateException("no rocSHMEM session: run the benchmarks through BenchMain on every PE"
                    + " (bench/run.sh), not with the JMH main class");
        }
        return s;
    }

    public static int me() {
        return session().myPe();
    }

    /** The PE every one-sided operation of this PE targets: the next one (PE 0 -> 1 -> 0 on two PEs). */
    public static int peer() {
        Rocshmem s = session();
        return (s.myPe() + 1) % s.nPes();
    }
}
