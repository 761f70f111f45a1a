package org.rocshmem.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The emulator's own ceiling from the C driver ({@code rocshmem-emu-bench}): its "RESULT name key=value ..." lines,
 * one output file per PE count.
 */
final class Ceiling {
    private static final Pattern RESULT = Pattern.compile("RESULT (\\S+)((?: \\S+=\\S+)+)");

    /** name -> list of key/value maps, in output order. */
    final Map<String, List<Map<String, String>>> results = new LinkedHashMap<>();

    static Ceiling read(Path file) throws IOException {
        Ceiling ceiling = new Ceiling();
        if (!Files.exists(file)) {
            return ceiling;
        }
        for (String line : Files.readAllLines(file)) {
            Matcher m = RESULT.matcher(line);
            if (!m.find()) {
                continue;
            }
            Map<String, String> values = new LinkedHashMap<>();
            for (String pair : m.group(2).trim().split(" ")) {
                int eq = pair.indexOf('=');
                values.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
            ceiling.results.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(values);
        }
        return ceiling;
    }

    List<Map<String, String>> get(String name) {
        return results.getOrDefault(name, List.of());
    }
}
