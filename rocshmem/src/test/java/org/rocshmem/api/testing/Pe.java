package org.rocshmem.api.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.rocshmem.api.bootstrap.LaunchEnvironment;

/**
 * Helpers for code running inside a {@link MultiPe} PE JVM: who am I, and a per-test directory shared by all PEs
 * of one run (created and deleted by the orchestrating JVM) for exchanging small test data.
 */
public final class Pe {
    /** Set to "true" on PE JVMs only; the extension uses it to decide between orchestrating and running. */
    static final String CHILD_PROPERTY = "rocshmem.testing.peChild";
    static final String SHARED_DIR_PROPERTY = "rocshmem.testing.sharedDir";
    static final String REPORT_DIR_PROPERTY = "rocshmem.testing.reportDir";

    private Pe() {
    }

    public static boolean isChild() {
        return Boolean.getBoolean(CHILD_PROPERTY);
    }

    public static LaunchEnvironment environment() {
        requireChild();
        return LaunchEnvironment.fromSystemEnvironment();
    }

    public static int rank() {
        return environment().rank();
    }

    public static Path sharedDir() {
        requireChild();
        return Path.of(System.getProperty(SHARED_DIR_PROPERTY));
    }

    /** Publishes this PE's value under {@code key}; atomically, so readers never see half a file. */
    public static void publish(String key, String value) {
        Path target = sharedDir().resolve(key + "." + rank());
        Path temporary = sharedDir().resolve(key + "." + rank() + ".tmp");
        try {
            Files.writeString(temporary, value, StandardCharsets.UTF_8);
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Waits until every PE published {@code key} and returns the values in rank order (a file-based allgather,
     * independent of the code under test).
     */
    public static List<String> collect(String key, Duration timeout) throws InterruptedException {
        LaunchEnvironment env = environment();
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> values = new ArrayList<>();
        for (int rank = 0; rank < env.worldSize(); rank++) {
            Path file = sharedDir().resolve(key + "." + rank);
            while (!Files.exists(file)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("PE " + rank + " did not publish '" + key + "' within " + timeout);
                }
                Thread.sleep(20);
            }
            try {
                values.add(Files.readString(file, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return values;
    }

    private static void requireChild() {
        if (!isChild()) {
            throw new IllegalStateException("only available inside a @MultiPe PE JVM");
        }
    }
}
