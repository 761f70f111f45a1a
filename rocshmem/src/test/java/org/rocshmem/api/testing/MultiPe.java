package org.rocshmem.api.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a {@code @Test} method (or every {@code @Test} method of an annotated class) in {@link #value()} separate
 * JVMs, one per PE, started like {@code org.rocshmem.api.launch.Launcher} does (RANK, WORLD_SIZE, MASTER_PORT...).
 * The JVM that runs JUnit only orchestrates: it skips the body and the {@code @BeforeEach}/{@code @AfterEach}
 * methods (and {@code @BeforeAll}/{@code @AfterAll} for an annotated class); each PE JVM runs them for real.
 * The test passes only if every PE passes; see {@link Pe} for helpers usable inside the body.
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
@ExtendWith(MultiPeExtension.class)
public @interface MultiPe {
    /** Number of PEs (JVMs). */
    int value();

    /** The whole multi-PE run (all JVMs) is stopped and failed after this many seconds. */
    long timeoutSeconds() default 120;

    /** Extra options for every PE JVM, e.g. {@code "-Xmx256m"}. */
    String[] jvmArgs() default {};

    /** Extra environment variables for every PE JVM, each {@code "NAME=value"} (e.g. simulated nodes). */
    String[] env() default {};

    /** Runs in each PE around the JUnit execution of the test (e.g. rocSHMEM init/finalize). */
    Class<? extends PeLifecycle> lifecycle() default PeLifecycle.None.class;
}
