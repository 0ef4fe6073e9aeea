package com.example.threading.load.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The whole machine's CPU use from {@code /proc/stat} (every process, the tool's, the service's and anyone
 * else's), in % of all cores between two readings: on a shared machine, what the service and the tool did not
 * use themselves was taken by others — the part of a tail no run of this tool can control.
 *
 * <p>Thread-safety: both methods are synchronized; in practice one thread resets and reads it.
 */
public final class MachineCpu {

    private static final Path STAT = Path.of("/proc/stat");

    private long lastBusy;
    private long lastTotal;

    /** A clock whose window starts now. */
    public MachineCpu() {
        reset();
    }

    /** Starts a new window now. */
    public synchronized void reset() {
        long[] reading = read();
        lastBusy = reading[0];
        lastTotal = reading[1];
    }

    /** The machine's busy share since the last call or reset, in % of all cores; NaN where /proc/stat is not readable. */
    public synchronized double percentSinceLast() {
        long[] reading = read();
        double percent = reading[1] <= lastTotal || lastTotal < 0 ? Double.NaN : 100.0 * (reading[0] - lastBusy) / (reading[1] - lastTotal);
        lastBusy = reading[0];
        lastTotal = reading[1];
        return percent;
    }

    private static long[] read() {
        try {
            List<String> lines = Files.readAllLines(STAT);
            return parse(lines.isEmpty() ? "" : lines.get(0));
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, -1};
        }
    }

    /** {busy, total} jiffies from /proc/stat's "cpu" line (busy = total − idle − iowait). */
    static long[] parse(String cpuLine) {
        String[] fields = cpuLine.trim().split("\\s+");
        if (fields.length < 5 || !fields[0].equals("cpu")) {
            return new long[] {-1, -1};
        }
        long total = 0;
        // user nice system idle iowait irq softirq steal (guest and guest_nice are already inside user and nice).
        for (int i = 1; i < Math.min(fields.length, 9); i++) {
            total += Long.parseLong(fields[i]);
        }
        long idle = Long.parseLong(fields[4]) + (fields.length > 5 ? Long.parseLong(fields[5]) : 0);
        return new long[] {total - idle, total};
    }
}
