package org.rocshmem.api.launch;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs {@link Launcher#run} in-process with captured stdout/stderr, and reads pids out of the output. */
record LauncherRun(int status, String stdout, String stderr, long elapsedMillis) {

    static LauncherRun of(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long start = System.nanoTime();
        int status = Launcher.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        long elapsed = (System.nanoTime() - start) / 1_000_000;
        return new LauncherRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8),
                elapsed);
    }

    /** Values of every "KEY=number" printed by the children, e.g. all pids. */
    List<Long> numbers(String key) {
        return numbers(stdout, key);
    }

    static List<Long> numbers(String text, String key) {
        Matcher matcher = Pattern.compile("\\] " + key + "=(\\d+)").matcher(text);
        List<Long> values = new ArrayList<>();
        while (matcher.find()) {
            values.add(Long.parseLong(matcher.group(1)));
        }
        return values;
    }
}
