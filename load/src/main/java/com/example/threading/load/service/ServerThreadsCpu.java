package com.example.threading.load.service;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's CPU time summed over its threads from Linux's {@code /proc/<pid>/task/<tid>/schedstat} (nanoseconds on
 * a CPU, finer than the clock ticks of {@code /proc/<pid>/stat}), without the JIT compiler's threads: a figure of one
 * batch of answers then holds what the answers cost, not what the JIT happens to compile meanwhile (on two cores its
 * threads took a quarter to a third of the service's CPU across rounds that long after their warm-up). Threads that
 * ended between two readings take their time with them: read around stretches in which the process starts no thread.
 *
 * <p>Thread-safety: stateless; {@link #nanos} may be called from any thread.
 */
public final class ServerThreadsCpu {

    private final Path tasks;

    /** The CPU of process {@code pid}. */
    public ServerThreadsCpu(long pid) {
        this.tasks = Path.of("/proc", Long.toString(pid), "task");
    }

    /** Whether this machine has the files (Linux). */
    public boolean available() {
        return Files.isDirectory(tasks);
    }

    /** The CPU time of the process's threads but its JIT compilers, so far (ns). */
    public long nanos() {
        long sum = 0;
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path thread : threads) {
                try {
                    String name = Files.readString(thread.resolve("comm"));
                    if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
                        continue;
                    }
                    String stat = Files.readString(thread.resolve("schedstat"));
                    sum += Long.parseLong(stat.substring(0, stat.indexOf(' ')));
                } catch (IOException ended) {
                    // the thread ended while the folder was read
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + tasks, e);
        }
        return sum;
    }
}
