package com.example.threading.load.target;

import java.util.Optional;

/**
 * The server process whose CPU the tool samples, when it is known (started by the tool, or given by --server-pid).
 *
 * <p>Thread-safety: immutable.
 */
public record ServerCpu(Optional<ProcessHandle> process) {

    /** A fresh clock on the server process. */
    public CpuClock clock() {
        return new CpuClock(process);
    }

    /** Whether the server's CPU is measured. */
    public boolean measured() {
        return process.isPresent();
    }
}
