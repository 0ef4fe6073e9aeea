package com.example.threading.load.service.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One container of the service's image ({@link ContainerImage}), run by {@code runc} as a child of this tool: the image's
 * user, environment, entrypoint and working directory as the image's config gives them (umoci's {@code config.json}),
 * its root file system shared read-only by every container of the image (a tmpfs on {@code /tmp}), in the network
 * namespace of a topology host ({@code ip netns}; the container sees only that host's interfaces, as a container of
 * a compose network does) with that host's {@code /etc/hosts}, plus the environment the caller adds (as
 * {@code docker run -e}).
 *
 * <p>Thread-safety: started on the scenario's (or test's) thread; {@link #stop}, {@link #kill} and {@link #close} may be
 * called from any thread, more than once.
 */
public final class Container implements Program, AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

    private final String id;
    private final Process runc;
    private final Path log;

    private Container(String id, Process runc, Path log) {
        this.id = id;
        this.runc = runc;
        this.log = log;
    }

    /**
     * Runs {@code image} as container {@code id} in {@code host}'s namespace with {@code environment} on top of the
     * image's own, its output appended to {@code log}; the run's bundle (its config only) goes into {@code folder}.
     */
    public static Container run(ContainerImage image, String id, Network.Host host, Map<String, String> environment, Path folder,
                                Path log) throws IOException {
        return run(image, id, host, environment, Optional.empty(), folder, log);
    }

    /** As {@link #run(ContainerImage, String, Network.Host, Map, Path, Path)}, with the open-file limit of the service's {@code ulimits}. */
    public static Container run(ContainerImage image, String id, Network.Host host, Map<String, String> environment,
                                Optional<ComposeFile.FileLimit> nofile, Path folder, Path log) throws IOException {
        Files.createDirectories(folder);
        Files.createDirectories(log.toAbsolutePath().getParent());
        ObjectNode config = (ObjectNode) JSON.readTree(image.config().toFile());
        ObjectNode root = config.putObject("root");
        root.put("path", image.rootfs().toAbsolutePath().toString());
        root.put("readonly", true);
        ObjectNode process = (ObjectNode) config.get("process");
        process.put("terminal", false);
        nofile.ifPresent(limit -> {
            ArrayNode rlimits = process.putArray("rlimits");
            rlimits.addObject().put("type", "RLIMIT_NOFILE").put("hard", limit.hard()).put("soft", limit.soft());
        });
        Map<String, String> env = new LinkedHashMap<>();
        for (JsonNode entry : process.path("env")) {
            String[] pair = entry.asText().split("=", 2);
            env.put(pair[0], pair.length > 1 ? pair[1] : "");
        }
        env.putAll(environment);
        ArrayNode envArray = process.putArray("env");
        env.forEach((name, value) -> envArray.add(name + "=" + value));
        ObjectNode linux = (ObjectNode) config.get("linux");
        ArrayNode namespaces = linux.putArray("namespaces");
        for (String type : List.of("pid", "ipc", "uts", "mount")) {
            namespaces.addObject().put("type", type);
        }
        namespaces.addObject().put("type", "network").put("path", "/var/run/netns/" + host.namespace());
        ArrayNode mounts = (ArrayNode) config.get("mounts");
        mounts.addObject().put("destination", "/tmp").put("type", "tmpfs").put("source", "tmpfs")
                .set("options", JSON.createArrayNode().add("nosuid").add("nodev").add("mode=1777").add("size=256m"));
        Path hosts = Path.of("/etc/netns", host.namespace(), "hosts");
        if (Files.isRegularFile(hosts)) {
            mounts.addObject().put("destination", "/etc/hosts").put("type", "bind").put("source", hosts.toString())
                    .set("options", JSON.createArrayNode().add("rbind").add("ro"));
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(folder.resolve("config.json").toFile(), config);
        Process runc = new ProcessBuilder(Prerequisites.which("runc").toString(), "run", "--bundle", folder.toAbsolutePath().toString(), id)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        return new Container(id, runc, log);
    }

    /** The container's id. */
    public String id() {
        return id;
    }

    /** The pid of the container's first process on this machine (the service's JVM, once the entrypoint exec'd it); empty before it runs. */
    public Optional<Long> pid() throws IOException {
        Commands.Result state = Commands.attempt(List.of("runc", "state", id), COMMAND_TIMEOUT);
        if (state.exitCode() != 0) {
            return Optional.empty();
        }
        long pid = JSON.readTree(state.output()).path("pid").asLong(0);
        return pid > 0 ? Optional.of(pid) : Optional.empty();
    }

    /** Runs {@code command} inside the running container (as its user), as {@code docker exec} does: exit code and output. */
    public Commands.Result exec(String... command) throws IOException {
        List<String> full = new ArrayList<>(List.of("runc", "exec", id));
        full.addAll(List.of(command));
        return Commands.attempt(full, COMMAND_TIMEOUT);
    }

    /** Whether {@code runc run} still runs (the container has not ended). */
    @Override
    public boolean isAlive() {
        return runc.isAlive();
    }

    /** Sends SIGTERM to the container's first process, as {@code docker stop} does; how long it took to end, if it did within {@code grace}. */
    public Optional<Duration> stop(Duration grace) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Commands.attempt(List.of("runc", "kill", id, "TERM"), COMMAND_TIMEOUT);
        if (runc.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            return Optional.of(Duration.ofNanos(System.nanoTime() - start));
        }
        return Optional.empty();
    }

    /** The exit code of {@code runc run}, once the container has ended: its first process's. */
    @Override
    public int exitValue() {
        return runc.exitValue();
    }

    /** SIGTERM, SIGKILL if it has not ended within 10 s. */
    @Override
    public void stop() {
        try {
            if (stop(Duration.ofSeconds(10)).isEmpty()) {
                kill();
            }
        } catch (IOException e) {
            kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGKILL to the container, and waits for it to end. */
    @Override
    public void kill() {
        try {
            Commands.attempt(List.of("runc", "kill", id, "KILL"), COMMAND_TIMEOUT);
            runc.waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            runc.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The file the container's output goes to. */
    @Override
    public Path log() {
        return log;
    }

    /** The last {@code lines} lines of its output, for error messages. */
    @Override
    public String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    /** Kills the container if it still runs, and removes it from runc's state. */
    @Override
    public void close() {
        if (runc.isAlive()) {
            kill();
        }
        try {
            Commands.attempt(List.of("runc", "delete", "--force", id), COMMAND_TIMEOUT);
        } catch (IOException e) {
            // nothing left to remove
        }
    }
}
