package com.example.threading.load.service;

import java.time.Duration;
import java.util.Optional;

/**
 * The server process whose CPU the tool samples, when it is known (started by the tool, or given by --server-pid): all
 * of it (utime + stime), or {@link #withoutJit() without its JIT compiler threads} ({@link ServerThreadsCpu}).
 */
public record ServerCpu(Optional<ProcessHandle> process, boolean withoutJitThreads) {

    /** The whole process's CPU. */
    public ServerCpu(Optional<ProcessHandle> process) {
        this(process, false);
    }

    /** The same process, its CPU read without the JIT compiler threads (where /proc has the threads; else all of it). */
    public ServerCpu withoutJit() {
        return new ServerCpu(process, true);
    }

    /** A fresh clock on the server process. */
    public CpuClock clock() {
        return new CpuClock(process);
    }

    /**
     * CPU time the server process has used so far, when it is known and running: utime + stime from /proc (in 10 ms
     * ticks), or without the JIT compiler threads the sum of its threads' schedstat (ns).
     */
    public Optional<Duration> cpuTime() {
        if (withoutJitThreads && process.isPresent()) {
            ServerThreadsCpu threads = new ServerThreadsCpu(process.get().pid());
            if (threads.available()) {
                return Optional.of(Duration.ofNanos(threads.nanos()));
            }
        }
        return process.flatMap(handle -> handle.info().totalCpuDuration());
    }

    /** Whether the server's CPU is measured. */
    public boolean measured() {
        return process.isPresent();
    }
}
