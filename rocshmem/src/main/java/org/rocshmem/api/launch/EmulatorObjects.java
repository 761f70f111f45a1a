package org.rocshmem.api.launch;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;

/**
 * The CPU emulator's shared-memory objects that given (dead) processes left behind. The emulator names each object
 * after its creator, {@code rocshmem-emu-<pid namespace>-<pid>-<role>-<token>}, in ROCSHMEM_EMU_SHM_DIR (default
 * /dev/shm). Objects only have names during init (they are unlinked once every PE mapped them), so what a PE killed
 * during init leaves can be swept by whoever knows its pid: the launcher when its PEs are gone, and a PE's watchdog
 * when the launcher is gone.
 */
final class EmulatorObjects {
    static final String SHM_DIR_VARIABLE = "ROCSHMEM_EMU_SHM_DIR";
    private static final Path DEFAULT_DIR = Path.of("/dev/shm");

    private EmulatorObjects() {
    }

    /** The directory the PEs of a job with this environment use. */
    static Path directory(Map<String, String> env) {
        String configured = env.get(SHM_DIR_VARIABLE);
        return configured == null || configured.isEmpty() ? DEFAULT_DIR : Path.of(configured);
    }

    /** Deletes the objects created by any of {@code pids}; returns how many. Never throws. */
    static int sweep(Path directory, Collection<Long> pids) {
        if (pids.isEmpty() || !Files.isDirectory(directory)) {
            return 0;
        }
        String namespace = pidNamespace();
        int removed = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, "rocshmem-emu-*")) {
            for (Path entry : entries) {
                if (createdByOneOf(entry.getFileName().toString(), namespace, pids) && Files.deleteIfExists(entry)) {
                    removed++;
                }
            }
        } catch (IOException | RuntimeException e) {
            // Best effort: a leftover is reclaimed by the next init on this machine anyway.
        }
        return removed;
    }

    private static boolean createdByOneOf(String name, String namespace, Collection<Long> pids) {
        String[] parts = name.split("-", 6); // rocshmem, emu, <ns>, <pid>, <role>, <token>
        if (parts.length < 6 || (namespace != null && !parts[2].equals(namespace))) {
            return false;
        }
        try {
            return pids.contains(Long.parseLong(parts[3]));
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The inode of this process's pid namespace ("pid:[4026531836]"), as the emulator writes it; null if unknown. */
    private static String pidNamespace() {
        try {
            String link = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
            int open = link.indexOf('[');
            int close = link.indexOf(']');
            return open >= 0 && close > open ? link.substring(open + 1, close) : null;
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }
}
