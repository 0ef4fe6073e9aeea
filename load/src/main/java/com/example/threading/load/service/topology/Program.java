package com.example.threading.load.service.topology;

import java.nio.file.Path;

/**
 * A program a topology host runs: a process in the host's namespace ({@link HostProcess}: Redis, HAProxy) or a container
 * of the service's image ({@link Container}: the instances).
 */
public interface Program {

    /** Whether it still runs. */
    boolean isAlive();

    /** Its exit code, once it has ended. */
    int exitValue();

    /** SIGKILL, and waits for it to be gone. */
    void kill();

    /** SIGTERM (a graceful stop), SIGKILL if it has not ended within 10 s. */
    void stop();

    /** The file its output goes to. */
    Path log();

    /** The last {@code lines} lines of its output, for error messages. */
    String tail(int lines);
}
