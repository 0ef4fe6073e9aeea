package com.example.threading.load.service.topology;

import com.example.threading.load.service.ChildProcesses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One program running on a host of the topology, as its container would run it: inside the host's namespace (through
 * {@code ip netns exec}, which execs the program, so this child's PID is the program's), with exactly the environment
 * given (a container inherits nothing from the machine's shell) and the open-file limit of the service's
 * {@code ulimits}, its output appended to a log file.
 *
 * <p>Thread-safety: started on the scenario's thread; {@link #kill} and {@link #stop} may be called from any thread,
 * more than once (a second call finds the process gone). The topology's shutdown path kills what still runs in its
 * namespaces, so no hook is registered per process.
 */
public final class HostProcess implements Program {

    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final Process process;
    private final Path log;

    private HostProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts {@code command} on {@code host} with {@code environment} (plus a PATH) and the file limit, if any. */
    static HostProcess start(Network network, Network.Host host, List<String> command, Map<String, String> environment,
                             Optional<ComposeFile.FileLimit> nofile, Path log) throws IOException {
        List<String> program = new ArrayList<>();
        nofile.ifPresent(limit -> program.addAll(List.of("prlimit", "--nofile=" + limit.soft() + ":" + limit.hard(), "--")));
        program.addAll(command);
        Files.createDirectories(log.toAbsolutePath().getParent());
        List<String> wrapped = new ArrayList<>(network.inside(host, program));
        wrapped.set(0, Prerequisites.which(wrapped.get(0)).toString());
        ProcessBuilder builder = new ProcessBuilder(wrapped).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
        builder.environment().putAll(environment);
        return new HostProcess(builder.start(), log);
    }

    /** The program's process id. */
    public long pid() {
        return process.pid();
    }

    /** Whether it still runs. */
    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Its exit code, once it has ended. */
    @Override
    public int exitValue() {
        return process.exitValue();
    }

    /** SIGKILL, and waits for the process to be gone. */
    @Override
    public void kill() {
        try {
            process.destroyForcibly().waitFor(STOP_GRACE.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGTERM (a graceful stop), SIGKILL if it has not ended within 10 s. */
    @Override
    public void stop() {
        ChildProcesses.stop(process, STOP_GRACE);
    }

    /** The file its output goes to. */
    @Override
    public Path log() {
        return log;
    }

    /** The last {@code lines} lines of its log, for error messages. */
    @Override
    public String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }
}
