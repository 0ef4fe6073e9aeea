package com.example.threading.floors;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What a figure printed by a one-off measurement must name beside it: the CPU model and the load average (Linux). */
public final class MachineFacts {

    private MachineFacts() {
    }

    /** The first {@code model name} of {@code /proc/cpuinfo}, or "unknown". */
    public static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(line -> line.startsWith("model name"))
                    .findFirst().map(line -> line.substring(line.indexOf(':') + 1).trim()).orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** {@code /proc/loadavg} as it reads, or "unknown". */
    public static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** CPU time this process has used (user + system), in Linux clock ticks of 1/100 s. */
    public static long cpuTicks() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime (fields 14 and 15)
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
