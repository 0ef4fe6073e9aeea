package com.example.threading.load.service;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Option;

/**
 * Where the load goes (a picocli mixin): by default the tool starts the service jar itself (so it can apply
 * the scenario's configuration and measure the server's CPU); with {@code --url} it loads a service that is
 * already running. Only loopback addresses are accepted.
 *
 * <p>{@link #open} may be called from any thread: it counts the children it started atomically, to name their logs.
 */
public final class TargetOptions {

    private static final String SERVICE_JAR = "threading-reference.jar";

    @Option(names = "--url", description = "Load a running service at this loopback URL instead of starting one, e.g. http://127.0.0.1:8080")
    URI url;

    @Option(names = "--admin-url", description = "With --url: its admin connector, e.g. http://127.0.0.1:8081")
    URI adminUrl;

    @Option(names = "--server-pid", description = "With --url: the service's process id, to sample its CPU")
    Long serverPid;

    @Option(names = "--jar", description = "The service jar to start (default: target/" + SERVICE_JAR + " of this repository)")
    Path jar;

    @Option(names = "--config", description = "The service's config.yml (default: the one next to the jar's target/ folder)")
    Path config;

    @Option(names = "--request-log", defaultValue = "on", description = "on: the service's config.yml as it is; off: a copy"
            + " of it without the request log (server.requestLog.appenders: []), written into the report folder, to measure"
            + " what the log costs (default: ${DEFAULT-VALUE})")
    RequestLog requestLog = RequestLog.on;

    /** Whether the started service keeps its configured request log. */
    public enum RequestLog {
        on, off
    }

    @Option(names = "--java", description = "The java executable for the service (default: the one running this tool)")
    Path javaExecutable;

    @Option(names = "--env", description = "Environment variable for the started service, KEY=VALUE, repeatable "
            + "(config.yml's knobs, e.g. WORK_BOUNDED_THREADS=10); applied after the scenario's own")
    Map<String, String> extraEnvironment = new LinkedHashMap<>();

    @Option(names = "--jvm-option", description = "JVM option for the started service, repeatable, after the tool's own -Xmx1g "
            + "(e.g. --jvm-option -Xmx2g --jvm-option -XX:+UseZGC, the JVM options of CometD's benchmark)")
    List<String> jvmOptions = new ArrayList<>();

    private final AtomicInteger starts = new AtomicInteger();

    /**
     * The target for one part of a scenario: a fresh child with these overrides, its log in
     * {@code logDirectory}, or the --url service (the overrides are then not applied, and the target's
     * caveats say so).
     */
    public Target open(Path logDirectory, Map<String, String> environment, List<String> systemProperties)
            throws IOException, InterruptedException {
        return open(logDirectory, environment, systemProperties, requestLog);
    }

    /** As {@link #open(Path, Map, List)}, its request log as {@code requestLog} says rather than as --request-log does. */
    public Target open(Path logDirectory, Map<String, String> environment, List<String> systemProperties, RequestLog requestLog)
            throws IOException, InterruptedException {
        if (url != null) {
            requireLoopback(url);
            Optional<URI> admin = Optional.ofNullable(adminUrl);
            admin.ifPresent(TargetOptions::requireLoopback);
            List<String> caveats = new ArrayList<>();
            if (!environment.isEmpty() || !systemProperties.isEmpty() || !extraEnvironment.isEmpty() || !jvmOptions.isEmpty()
                    || requestLog == RequestLog.off) {
                caveats.add("Targeting a running service (" + url + "): the overrides " + environment + " " + extraEnvironment + " " + jvmOptions
                        + " " + systemProperties + " (request log " + requestLog + ") were not applied; start the service with them"
                        + " for comparable figures.");
            }
            Optional<ProcessHandle> process = Optional.empty();
            if (serverPid == null) {
                caveats.add("Server CPU not measured: give --server-pid with --url.");
            } else {
                ServerPid resolved = ServerPid.resolve(serverPid);
                caveats.addAll(resolved.caveats());
                process = resolved.process();
            }
            return new Target(url, admin, new ServerCpu(process), Optional.empty(), Map.of(), caveats);
        }
        Path serviceJar = serviceJar();
        return open(logDirectory, environment, systemProperties, requestLog, serviceJar, serviceConfig(serviceJar));
    }

    /**
     * A fresh child of {@code serviceJar} with {@code serviceConfig}, otherwise as {@link #open(Path, Map, List, RequestLog)}
     * (e.g. the jar of the commit before a change, to measure both in one run); never the --url service.
     */
    public Target open(Path logDirectory, Map<String, String> environment, List<String> systemProperties, RequestLog requestLog,
                       Path serviceJar, Path serviceConfig) throws IOException, InterruptedException {
        if (!Files.isRegularFile(serviceJar)) {
            throw new IllegalStateException("the service jar " + serviceJar + " does not exist");
        }
        if (!Files.isRegularFile(serviceConfig)) {
            throw new IllegalStateException("config.yml not found at " + serviceConfig + "; give --config");
        }
        if (requestLog == RequestLog.off) {
            serviceConfig = ConfigWithoutRequestLog.write(serviceConfig, logDirectory);
        }
        Path javaExecutable = serviceJava();
        Path log = logDirectory.resolve("service-" + starts.incrementAndGet() + ".log");
        Map<String, String> childEnvironment = new LinkedHashMap<>(environment);
        childEnvironment.putAll(extraEnvironment);
        List<String> options = new ArrayList<>(jvmOptions);
        options.addAll(systemProperties);
        ServiceProcess child = ServiceProcess.start(javaExecutable, serviceJar, serviceConfig, childEnvironment, options, log);
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("service overrides", childEnvironment + " " + options);
        facts.put("service", serviceJar.toAbsolutePath() + " " + serviceConfig.toAbsolutePath());
        facts.put("service JDK", javaExecutable + " (" + javaVersion(javaExecutable) + ")");
        return new Target(child.applicationUri(), Optional.of(child.adminUri()), new ServerCpu(Optional.of(child.handle())),
                Optional.of(child), facts, List.of());
    }

    /** What --request-log said. */
    public RequestLog requestLog() {
        return requestLog;
    }

    /** The running service given by --url, if any (the tool then starts nothing). */
    public Optional<URI> runningService() {
        return Optional.ofNullable(url);
    }

    /** Whether the service's config.yml has a top-level section (so a -Ddw override of it will be accepted). */
    public boolean configHas(String section) {
        if (url != null) {
            return false;
        }
        try {
            return Files.readAllLines(serviceConfig(serviceJar())).stream().anyMatch(line -> line.startsWith(section + ":"));
        } catch (IOException e) {
            return false;
        }
    }

    /** The service's config.yml: --config, or the one next to the jar's target/ folder. */
    public Path serviceConfig() {
        return serviceConfig(serviceJar());
    }

    /** The java executable that runs the service: --java, or the one running this tool. */
    public Path serviceJava() {
        return javaExecutable != null ? javaExecutable : Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** The --env variables for the service, in the order given. */
    public Map<String, String> serviceEnvironment() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(extraEnvironment));
    }

    private Path serviceConfig(Path serviceJar) {
        return config != null ? config : serviceJar.toAbsolutePath().getParent().getParent().resolve("config.yml");
    }

    /** The service jar: --jar, or target/threading-reference.jar of this repository found from here or from the tool. */
    public Path serviceJar() {
        if (jar != null) {
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException("--jar " + jar + " does not exist");
            }
            return jar;
        }
        List<Path> candidates = new ArrayList<>(List.of(Path.of("target", SERVICE_JAR), Path.of("..", "target", SERVICE_JAR)));
        try {
            // This tool's code source, load/target/threading-load.jar or load/target/classes -> the repository root's target/.
            Path tool = Path.of(TargetOptions.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            candidates.add(tool.toAbsolutePath().getParent().getParent().getParent().resolve("target").resolve(SERVICE_JAR));
        } catch (Exception e) {
            // Only a convenience: the relative candidates remain.
        }
        return candidates.stream().filter(Files::isRegularFile).findFirst().map(Path::normalize).orElseThrow(() ->
                new IllegalStateException("The service jar " + SERVICE_JAR + " is missing (looked at " + candidates
                        + "). Build it first from the repository root with `mvn -B verify` (or `mvn -B package -DskipTests`), "
                        + "or give --jar or --url."));
    }

    private static void requireLoopback(URI uri) {
        String host = uri.getHost();
        boolean loopback;
        try {
            loopback = host != null && InetAddress.getByName(host).isLoopbackAddress();
        } catch (IOException e) {
            loopback = false;
        }
        if (!loopback) {
            throw new IllegalArgumentException("only loopback targets are allowed, not " + uri);
        }
    }

    private static String javaVersion(Path java) {
        try {
            Process process = new ProcessBuilder(java.toString(), "-version").redirectErrorStream(true).start();
            String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor();
            return text.lines().skip(1).findFirst().orElse(text).trim();
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}
