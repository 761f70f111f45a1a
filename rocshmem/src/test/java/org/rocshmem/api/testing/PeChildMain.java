package org.rocshmem.api.testing;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.rocshmem.api.bootstrap.LaunchEnvironment;

/**
 * Entry point of a PE JVM: runs one test method through the JUnit Platform (so @BeforeEach/@AfterEach and
 * parameter resolution behave as usual), wrapped in the {@link PeLifecycle}, and reports through its exit status
 * plus a failure report file read by {@link MultiPeRun}.
 *
 * <p>Arguments: test class name, method name, comma-separated parameter type names, lifecycle class name.
 */
public final class PeChildMain {
    static final int EXIT_PASSED = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_NOTHING_RAN = 3;
    static final int EXIT_ABORTED = 4;

    private PeChildMain() {
    }

    public static void main(String[] args) {
        // System.exit: a test may leave non-daemon threads behind that would keep the PE alive forever.
        System.exit(run(args[0], args[1], args[2], args[3]));
    }

    static String reportFileName(int rank) {
        return "pe-" + rank + ".failure.txt";
    }

    private static int run(String className, String methodName, String parameterTypes, String lifecycleName) {
        LaunchEnvironment env = LaunchEnvironment.fromSystemEnvironment();
        List<Throwable> failures = new ArrayList<>();
        PeLifecycle lifecycle;
        try {
            lifecycle = instantiate(lifecycleName);
            lifecycle.beforeTest(env);
        } catch (Throwable t) {
            return report(env, List.of(new AssertionError("PeLifecycle " + lifecycleName + ".beforeTest failed", t)));
        }
        Outcome outcome = runTest(className, methodName, parameterTypes);
        failures.addAll(outcome.failures);
        try {
            lifecycle.afterTest(env, outcome.failures.isEmpty() && outcome.testsFinished > 0);
        } catch (Throwable t) {
            failures.add(new AssertionError("PeLifecycle " + lifecycleName + ".afterTest failed", t));
        }
        if (!failures.isEmpty()) {
            return report(env, failures);
        }
        if (outcome.aborted != null) {
            report(env, List.of(outcome.aborted));
            return EXIT_ABORTED;
        }
        if (outcome.testsFinished == 0) {
            report(env, List.of(new AssertionError("no test ran for " + className + "#" + methodName
                    + "(" + parameterTypes + ") in this PE; is it disabled here?")));
            return EXIT_NOTHING_RAN;
        }
        return EXIT_PASSED;
    }

    private static PeLifecycle instantiate(String name) throws ReflectiveOperationException {
        try {
            return (PeLifecycle) Class.forName(name).getDeclaredConstructor().newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("constructor of " + name + " failed", e.getCause());
        }
    }

    private static Outcome runTest(String className, String methodName, String parameterTypes) {
        Outcome outcome = new Outcome();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(selectMethod(className, methodName, parameterTypes))
                .build(), outcome);
        return outcome;
    }

    /** Records failures of the test and of its containers (e.g. a failing @BeforeAll). */
    private static final class Outcome implements TestExecutionListener {
        final List<Throwable> failures = new ArrayList<>();
        Throwable aborted;
        int testsFinished;

        @Override
        public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            if (id.isTest()) {
                testsFinished++;
            }
            Throwable cause = result.getThrowable()
                    .orElseGet(() -> new AssertionError(id.getDisplayName() + " " + result.getStatus()));
            switch (result.getStatus()) {
                case FAILED -> failures.add(cause);
                case ABORTED -> aborted = cause;
                case SUCCESSFUL -> { }
            }
        }
    }

    /** Prints the failures to stderr (visible in the prefixed output) and to the report file for the message. */
    private static int report(LaunchEnvironment env, List<Throwable> failures) {
        StringWriter text = new StringWriter();
        try (PrintWriter writer = new PrintWriter(text)) {
            failures.forEach(failure -> failure.printStackTrace(writer));
        }
        System.err.print(text);
        System.err.flush();
        String reportDir = System.getProperty(Pe.REPORT_DIR_PROPERTY);
        if (reportDir != null) {
            try {
                Files.writeString(Path.of(reportDir, reportFileName(env.rank())), text.toString());
            } catch (IOException e) {
                System.err.println("cannot write the PE failure report: " + e);
            }
        }
        return EXIT_FAILED;
    }
}
