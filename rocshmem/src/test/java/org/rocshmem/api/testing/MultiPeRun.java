package org.rocshmem.api.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.opentest4j.TestAbortedException;
import org.rocshmem.api.launch.LaunchResult;
import org.rocshmem.api.launch.PeJob;
import org.rocshmem.api.launch.PeResult;

/** Orchestrating side of one {@link MultiPe} test: starts the PE JVMs and turns their outcome into a verdict. */
final class MultiPeRun {
    /** System property prefixes forwarded to PE JVMs so they see the same native-library configuration. */

    private final MultiPe spec;
    private final Class<?> testClass;
    private final Method method;

    MultiPeRun(MultiPe spec, Class<?> testClass, Method method) {
        if (spec.value() < 1) {
            throw new ExtensionConfigurationException("@MultiPe needs at least 1 PE, got " + spec.value());
        }
        if (spec.timeoutSeconds() < 1) {
            throw new ExtensionConfigurationException("@MultiPe timeoutSeconds must be >= 1");
        }
        this.spec = spec;
        this.testClass = testClass;
        this.method = method;
    }

    void runAndVerify() throws IOException, InterruptedException {
        Path workDir = Files.createTempDirectory("rocshmem-multipe-");
        try {
            Path sharedDir = Files.createDirectory(workDir.resolve("shared"));
            Path reportDir = Files.createDirectory(workDir.resolve("reports"));
            LaunchResult result = job(sharedDir, reportDir).run();
            verify(result, reportDir);
        } finally {
            deleteRecursively(workDir);
        }
    }

    private PeJob job(Path sharedDir, Path reportDir) {
        List<String> jvmArgs = new ArrayList<>(forwardedProperties());
        jvmArgs.add("-D" + Pe.CHILD_PROPERTY + "=true");
        jvmArgs.add("-D" + Pe.SHARED_DIR_PROPERTY + "=" + sharedDir);
        jvmArgs.add("-D" + Pe.REPORT_DIR_PROPERTY + "=" + reportDir);
        jvmArgs.addAll(Arrays.asList(spec.jvmArgs()));
        String parameterTypes = Arrays.stream(method.getParameterTypes()).map(Class::getTypeName)
                .collect(Collectors.joining(","));
        PeJob.Builder builder = PeJob.builder(PeChildMain.class);
        for (String variable : spec.env()) {
            int eq = variable.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("@MultiPe env entry must be NAME=value: " + variable);
            }
            builder.env(variable.substring(0, eq), variable.substring(eq + 1));
        }
        return builder
                .nproc(spec.value())
                .timeout(Duration.ofSeconds(spec.timeoutSeconds()))
                .jvmArgs(jvmArgs)
                .args(testClass.getName(), method.getName(), parameterTypes, spec.lifecycle().getName())
                .build();
    }

    /** The parent's settings, minus the harness's own markers (which must not reach the PEs). */
    private static List<String> forwardedProperties() {
        return PeJob.inheritedSystemProperties().stream()
                .filter(arg -> !arg.startsWith("-Drocshmem.testing."))
                .toList();
    }

    private void verify(LaunchResult result, Path reportDir) {
        if (result.succeeded()) {
            return;
        }
        boolean allAborted = result.pes().stream().allMatch(pe -> pe.exitStatus() == PeChildMain.EXIT_ABORTED);
        String message = MultiPeFailureMessage.format(describeTest(), result, reportDir);
        if (allAborted) {
            throw new TestAbortedException(message);
        }
        throw new AssertionError(message);
    }

    private String describeTest() {
        return "@MultiPe(" + spec.value() + ") " + testClass.getName() + "#" + method.getName();
    }

    private static void deleteRecursively(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clean up " + root, e);
        }
    }

    static String readReport(Path reportDir, PeResult pe) {
        Path report = reportDir.resolve(PeChildMain.reportFileName(pe.rank()));
        try {
            return Files.exists(report) ? Files.readString(report) : "";
        } catch (IOException e) {
            return "(cannot read " + report + ": " + e.getMessage() + ")";
        }
    }
}
