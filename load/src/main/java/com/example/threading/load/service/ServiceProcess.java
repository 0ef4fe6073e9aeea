package com.example.threading.load.service;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The service jar started as a child process on free loopback ports, with environment variables and
 * {@code -Ddw.*} overrides; {@link #close()} (and a shutdown hook, should the tool be killed) stops it.
 *
 * <p>Thread-safety: the scenario's thread starts it; {@link #close()} may be called from any thread, more than
 * once (a second call finds the process gone). The JVM's shutdown hook thread kills the child if the tool
 * exits without closing it (the watchdog's {@code System.exit}, Ctrl-C); {@code close} removes that hook.
 * The accessors read final fields.
 */
final class ServiceProcess implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);

    private final Process process;
    private final URI applicationUri;
    private final URI adminUri;
    private final Path log;
    private final Path gcLog;
    private final Thread shutdownHook;

    private ServiceProcess(Process process, URI applicationUri, URI adminUri, Path log, Path gcLog) {
        this.process = process;
        this.applicationUri = applicationUri;
        this.adminUri = adminUri;
        this.log = log;
        this.gcLog = gcLog;
        this.shutdownHook = ChildProcesses.killOnExit(process, "stop-service-child");
    }

    /**
     * Starts {@code java -Xmx1g [jvmOptions] -jar jar server config} with the environment overrides, the
     * application and admin connectors bound to 127.0.0.1 on free ports, and waits until /healthcheck answers.
     * The child writes its GC log ({@code -Xlog:gc*}) next to {@code log}, as {@code <log name>-gc.log}.
     */
    static ServiceProcess start(Path java, Path jar, Path config, Map<String, String> environment,
                                List<String> jvmOptions, Path log) throws IOException, InterruptedException {
        int appPort = freePort();
        int adminPort = freePort();
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.add("-Xmx1g");
        Path gcLog = log.resolveSibling(log.getFileName().toString().replaceFirst("\\.log$", "") + "-gc.log");
        // Every pause of the service, for the report's GC table (read by the engine's GcLog); no rotation.
        command.add("-Xlog:gc*:file=" + gcLog.toAbsolutePath() + ":utctime,uptime,level,tags:filecount=0");
        command.addAll(jvmOptions); // after -Xmx1g: a -Xmx of the caller's wins
        command.addAll(List.of("-jar", jar.toString(), "server", config.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = builder.environment();
        env.put("APP_BIND_HOST", "127.0.0.1");
        env.put("ADMIN_BIND_HOST", "127.0.0.1");
        env.put("APP_PORT", Integer.toString(appPort));
        env.put("ADMIN_PORT", Integer.toString(adminPort));
        // A short grace period: the tool never waits 30 s for parked requests it has already given up on.
        env.put("SHUTDOWN_GRACE_PERIOD", "2s");
        env.putAll(environment);
        ServiceProcess service = new ServiceProcess(builder.start(), URI.create("http://127.0.0.1:" + appPort),
                URI.create("http://127.0.0.1:" + adminPort), log, gcLog);
        try {
            service.awaitHealthy();
            return service;
        } catch (IOException | InterruptedException | RuntimeException e) {
            service.close();
            throw e;
        }
    }

    private void awaitHealthy() throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest health = HttpRequest.newBuilder(adminUri.resolve("/healthcheck")).timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("the service exited with " + process.exitValue() + " before it was healthy; its log:\n"
                        + tail(log));
            }
            try {
                // 200 or 500: either way the server is up and answering.
                client.send(health, HttpResponse.BodyHandlers.discarding());
                return;
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
        throw new IOException("the service did not answer " + health.uri() + " within " + START_TIMEOUT + "; its log:\n" + tail(log));
    }

    /** The application connector, e.g. http://127.0.0.1:41234. */
    URI applicationUri() {
        return applicationUri;
    }

    /** The admin connector (metrics, healthcheck). */
    URI adminUri() {
        return adminUri;
    }

    /** The child process, for its CPU time. */
    ProcessHandle handle() {
        return process.toHandle();
    }

    /** The child's GC log. */
    Path gcLog() {
        return gcLog;
    }

    /** The file the child's stdout and stderr go to. */
    Path log() {
        return log;
    }

    /** Kills the child at once with SIGKILL (no graceful stop: the crash a cluster must survive), waiting for its PID to end. */
    void kill() {
        try {
            process.destroyForcibly().waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the child: SIGTERM (Dropwizard's graceful stop), then SIGKILL if it has not exited in time. */
    @Override
    public void close() {
        ChildProcesses.stop(process, shutdownHook, STOP_TIMEOUT);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }
}
