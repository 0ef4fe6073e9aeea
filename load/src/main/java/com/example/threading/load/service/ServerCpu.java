package com.example.threading.load.service;

import java.time.Duration;
import java.util.Optional;

/**
 * The server process whose CPU the tool samples, when it is known (started by the tool, or given by --server-pid).
 */
public record ServerCpu(Optional<ProcessHandle> process) {

    /** A fresh clock on the server process. */
    public CpuClock clock() {
        return new CpuClock(process);
    }

    /** CPU time the server process has used so far (utime + stime from /proc, in 10 ms ticks), when it is known and running. */
    public Optional<Duration> cpuTime() {
        return process.flatMap(handle -> handle.info().totalCpuDuration());
    }

    /** Whether the server's CPU is measured. */
    public boolean measured() {
        return process.isPresent();
    }
}
