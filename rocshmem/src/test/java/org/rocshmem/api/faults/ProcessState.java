package org.rocshmem.api.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a process still runs. A process that exited stays a zombie until its parent reaps it, and the parent of an
 * orphan (pid 1 of the machine or container) may take a second to do so; ProcessHandle.isAlive() counts zombies as
 * alive, this does not.
 */
public final class ProcessState {
    private ProcessState() {
    }

    public static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            int afterName = stat.lastIndexOf(')'); // the command name may contain spaces and parentheses
            char state = afterName >= 0 && afterName + 2 < stat.length() ? stat.charAt(afterName + 2) : '?';
            return state != 'Z' && state != 'X';
        } catch (IOException gone) {
            return false;
        }
    }
}
