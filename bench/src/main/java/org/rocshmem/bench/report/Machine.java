package org.rocshmem.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What the report says about the machine and the JVM it ran on. */
record Machine(String cpu, int logicalCpus, String cores, String memory, String os, String jdk) {

    static Machine describe() {
        String cpu = "unknown CPU";
        String cores = "?";
        int logical = 0;
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
            for (String line : lines) {
                String[] kv = line.split(":", 2);
                if (kv.length < 2) {
                    continue;
                }
                String key = kv[0].trim();
                if (key.equals("model name") && cpu.equals("unknown CPU")) {
                    cpu = kv[1].trim();
                } else if (key.equals("cpu cores")) {
                    cores = kv[1].trim();
                } else if (key.equals("processor")) {
                    logical++;
                }
            }
        } catch (IOException e) {
            logical = Runtime.getRuntime().availableProcessors();
        }
        String memory = "?";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    long kib = Long.parseLong(line.replaceAll("\\D", ""));
                    memory = String.format("%.1f GiB", kib / 1024.0 / 1024.0);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // leave "?"
        }
        String os = System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch");
        String jdk = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
                + System.getProperty("java.vm.vendor") + ")";
        return new Machine(cpu, logical, cores, memory, os, jdk);
    }
}
