package com.example.threading.load;

import java.util.Optional;

/** The server process whose CPU the tool samples, when it is known (started by the tool, or given by --server-pid). */
record ServerCpu(Optional<ProcessHandle> process) {

    /** A fresh clock on the server process. */
    CpuClock clock() {
        return new CpuClock(process);
    }

    /** Whether the server's CPU is measured. */
    boolean measured() {
        return process.isPresent();
    }
}
