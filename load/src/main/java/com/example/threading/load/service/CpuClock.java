package com.example.threading.load.service;

import java.time.Duration;
import java.util.Optional;

/**
 * Turns a process's accumulated CPU time ({@link ProcessHandle.Info#totalCpuDuration()}, read from
 * /proc on Linux) into the percentage of all cores it used between two readings.
 *
 * <p>Thread-safety: safe from any thread. A recorder creates its clocks on its owner thread and reads them
 * from its ticker thread and, at the end, from the owner again; both methods are synchronized (they run
 * about once a second, so the lock costs nothing), which also makes each reading see the previous one.
 */
public final class CpuClock {

    private static final int CORES = Runtime.getRuntime().availableProcessors();

    private final Optional<ProcessHandle> process;
    private long lastCpuNanos;
    private long lastWallNanos;

    /** A clock on the process, or one that reads nothing when the process is unknown; its window starts now. */
    public CpuClock(Optional<ProcessHandle> process) {
        this.process = process;
        reset();
    }

    /** Starts a new measurement window now. */
    public synchronized void reset() {
        lastCpuNanos = cpuNanos();
        lastWallNanos = System.nanoTime();
    }

    /** CPU used since the last call (or reset), in % of all cores; NaN if the process is unknown. */
    public synchronized double percentSinceLast() {
        long cpu = cpuNanos();
        long wall = System.nanoTime();
        double percent = lastCpuNanos < 0 || cpu < 0 || wall == lastWallNanos ? Double.NaN
                : 100.0 * (cpu - lastCpuNanos) / ((double) (wall - lastWallNanos) * CORES);
        lastCpuNanos = cpu;
        lastWallNanos = wall;
        return percent;
    }

    /** Whether there is a process to measure. */
    public boolean measures() {
        return process.isPresent();
    }

    private long cpuNanos() {
        return process.flatMap(handle -> handle.info().totalCpuDuration()).map(Duration::toNanos).orElse(-1L);
    }

    /** Logical cores on this machine (the denominator of every percentage). */
    public static int cores() {
        return CORES;
    }
}
