package com.example.threading.load.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the reader needs to know about the machine and JDK a report came from.
 */
final class Machine {

    private Machine() {
    }

    /** Cores, CPU model, memory, load average, OS and this tool's JDK. */
    static Map<String, Object> describe() {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("cpu", cpuModel());
        facts.put("cores", Runtime.getRuntime().availableProcessors());
        facts.put("memory", memTotal());
        facts.put("load average at start (1 / 5 / 15 min)", loadAverage());
        facts.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        facts.put("tool JDK", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.home") + ")");
        facts.put("load generator", "jetty-load-generator-client 4.0.21 (Jetty client 12.0.x), HdrHistogram 2.2.2");
        return facts;
    }

    private static String cpuModel() {
        return firstValue(Path.of("/proc/cpuinfo"), "model name").orElse(System.getProperty("os.arch"));
    }

    /** /proc/loadavg's first three fields: runnable and waiting threads, averaged over 1, 5 and 15 minutes. */
    private static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields.length < 3 ? "unknown" : fields[0] + " / " + fields[1] + " / " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static String memTotal() {
        return firstValue(Path.of("/proc/meminfo"), "MemTotal").orElse("unknown");
    }

    private static java.util.Optional<String> firstValue(Path file, String key) {
        try (var lines = Files.lines(file)) {
            return lines.filter(line -> line.startsWith(key)).findFirst()
                    .map(line -> line.substring(line.indexOf(':') + 1).trim());
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }
}
