package org.rocshmem.api.launch;

import java.util.List;
import java.util.Optional;

/**
 * Runs in every PE JVM started by the launcher: when the launcher process is gone (even SIGKILLed, when none of its
 * own shutdown code can run), the PE stops its own child processes, removes the emulator objects it created, and
 * halts within {@value #POLL_MILLIS} ms. Halt, not exit: shutdown hooks would try to finalize rocSHMEM with peers
 * that are going away as well.
 */
final class LauncherWatchdog implements Runnable {
    static final long POLL_MILLIS = 200;
    /** Exit status of a PE stopped because its launcher died (the same as the emulator's "peer died"). */
    static final int LAUNCHER_GONE_STATUS = 70;

    private final long launcherPid;
    /** True when the launcher is our parent; then re-parenting tells its death even if its pid is reused. */
    private final boolean launcherIsParent;

    private LauncherWatchdog(long launcherPid) {
        this.launcherPid = launcherPid;
        this.launcherIsParent = parentPid().map(pid -> pid == launcherPid).orElse(false);
    }

    /** Starts the watchdog when this JVM was started by the launcher (ROCSHMEM_LAUNCHER_PID is set). */
    static void startFromEnvironment() {
        String value = System.getenv(org.rocshmem.api.bootstrap.LaunchEnvVars.ROCSHMEM_LAUNCHER_PID);
        if (value == null || value.isBlank()) {
            return;
        }
        long pid;
        try {
            pid = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            System.err.println("rocshmem: ignoring invalid ROCSHMEM_LAUNCHER_PID=" + value);
            return;
        }
        Thread thread = new Thread(new LauncherWatchdog(pid), "rocshmem-launcher-watchdog");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void run() {
        while (launcherAlive()) {
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
        long self = ProcessHandle.current().pid();
        System.err.println("rocshmem: the launcher (pid " + launcherPid + ") is gone; stopping this PE (pid " + self
                + ")");
        System.err.flush();
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
        EmulatorObjects.sweep(EmulatorObjects.directory(System.getenv()), List.of(self));
        Runtime.getRuntime().halt(LAUNCHER_GONE_STATUS);
    }

    private boolean launcherAlive() {
        if (launcherIsParent) {
            return parentPid().map(pid -> pid == launcherPid).orElse(false);
        }
        return ProcessHandle.of(launcherPid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static Optional<Long> parentPid() {
        return ProcessHandle.current().parent().map(ProcessHandle::pid);
    }
}
