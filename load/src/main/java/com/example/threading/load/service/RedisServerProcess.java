package com.example.threading.load.service;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Redis that a cluster scenario's instances share: a {@code redis-server} from the PATH started on a free
 * loopback port (no persistence: a load run needs none), stopped by its PID on {@link #close()} (and by a shutdown
 * hook should the tool be killed); or a running one given by {@code --redis-uri}, which is left alone.
 *
 * <p>A shutdown hook kills the child if the tool exits without closing it.
 */
public final class RedisServerProcess implements AutoCloseable {

    private final String uri;
    private final String version;
    private final Process process;
    private final Thread shutdownHook;

    private RedisServerProcess(String uri, String version, Process process) {
        this.uri = uri;
        this.version = version;
        this.process = process;
        this.shutdownHook = process == null ? null : ChildProcesses.killOnExit(process, "stop-redis-child");
    }

    /** A running Redis at a loopback {@code uri}: nothing is started or stopped. */
    public static RedisServerProcess running(URI uri) {
        String host = uri.getHost();
        try {
            if (host == null || !InetAddress.getByName(host).isLoopbackAddress()) {
                throw new IllegalArgumentException("only a loopback Redis is allowed, not " + uri);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot resolve " + uri, e);
        }
        return new RedisServerProcess(uri.toString(), "given by --redis-uri", null);
    }

    /** Starts {@code redis-server} from the PATH on 127.0.0.1 and a free port, its log and files in {@code directory}. */
    public static RedisServerProcess start(Path directory) throws IOException, InterruptedException {
        return start(directory, List.of());
    }

    /**
     * Starts {@code redis-server} from the PATH on 127.0.0.1 and a free port with {@code settings} added to its command
     * line (e.g. cluster mode), its log and files in {@code directory}.
     */
    static RedisServerProcess start(Path directory, List<String> settings) throws IOException, InterruptedException {
        Files.createDirectories(directory);
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        Process process;
        try {
            List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no", "--dir", directory.toAbsolutePath().toString()));
            command.addAll(settings);
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true).redirectOutput(directory.resolve("redis.log").toFile()).start();
        } catch (IOException notInstalled) {
            throw new IOException("redis-server is not on the PATH (e.g. apt-get install -y redis-server), or give --redis-uri", notInstalled);
        }
        RedisServerProcess redis = new RedisServerProcess("redis://127.0.0.1:" + port, versionOf(), process);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                redis.close();
                throw new IOException("redis-server exited with " + process.exitValue() + ", see " + directory.resolve("redis.log"));
            }
            try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return redis;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        redis.close();
        throw new IOException("redis-server did not listen on port " + port + " within 20 s");
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String uri() {
        return uri;
    }

    /** What {@code redis-server --version} said, for the report. */
    public String version() {
        return version;
    }

    /** Stops the Redis this tool started (SIGTERM, then SIGKILL after 10 s); a given one is left alone. */
    @Override
    public void close() {
        if (process == null) {
            return;
        }
        ChildProcesses.stop(process, shutdownHook, Duration.ofSeconds(10));
    }

    private static String versionOf() {
        try {
            Process version = new ProcessBuilder("redis-server", "--version").redirectErrorStream(true).start();
            String text = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            version.waitFor();
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }
}
