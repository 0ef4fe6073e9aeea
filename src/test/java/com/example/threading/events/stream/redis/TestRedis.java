package com.example.threading.events.stream.redis;

import com.example.threading.testing.Prerequisites;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import redis.embedded.RedisServer;
import redis.embedded.core.ExecutableProvider;
import redis.embedded.core.RedisServerBuilder;

/**
 * A real redis-server for the tests, on 127.0.0.1 and a free port, with its data (AOF on) in a temporary
 * directory: the binary shipped in the embedded-redis jar (Redis 6.2), else a {@code redis-server} on the PATH.
 * When neither starts, the calling test fails under {@code CI=true} and is skipped elsewhere
 * ({@link Prerequisites}), with a message naming what is missing. {@link #stop} and
 * {@link #start} again keep port and data (the restart of the fault tests); {@link #close} stops it and deletes the
 * data.
 *
 * <p>Thread-safety: for the test thread only.
 */
public final class TestRedis implements AutoCloseable {

    private final int port;
    private final Path dir;
    private final RedisServer server;

    private TestRedis(int port, Path dir, RedisServer server) {
        this.port = port;
        this.dir = dir;
        this.server = server;
    }

    /** Starts a Redis; when no Redis binary can run here, fails the test under CI and skips it elsewhere. */
    public static TestRedis startOrSkip() {
        Path dir;
        try {
            dir = Files.createTempDirectory("test-redis-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int port = freePort();
        StringBuilder tried = new StringBuilder();
        for (String source : new String[] {"jar", "path"}) {
            try {
                RedisServer server = builder(source).port(port).bind("127.0.0.1")
                        .setting("dir " + dir)
                        .setting("appendonly yes")
                        .setting("save \"\"")
                        .build();
                server.start();
                return new TestRedis(port, dir, server);
            } catch (IOException | RuntimeException e) {
                tried.append(source.equals("jar") ? "embedded-redis's binary" : "redis-server on PATH").append(": ")
                        .append(e.getMessage()).append("; ");
            }
        }
        delete(dir);
        throw Prerequisites.unavailable("no Redis server could be started for the Redis stream tests: " + tried,
                "the embedded-redis jar's binary should run on Linux x86_64; else apt-get install -y redis-server");
    }

    private static RedisServerBuilder builder(String source) throws IOException {
        RedisServerBuilder builder = RedisServer.newRedisServer();
        return source.equals("jar") ? builder : builder.executableProvider(ExecutableProvider.newExecutableInPath("redis-server"));
    }

    /** {@code redis://127.0.0.1:<port>}. */
    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** The port it listens on (127.0.0.1). */
    public int port() {
        return port;
    }

    /** Stops the server (SIGTERM: it flushes its AOF); {@link #start} brings it back with the same data. */
    public void stop() {
        try {
            server.stop();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts the server again on the same port and data. */
    public void start() {
        try {
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (server.isActive()) {
            stop();
        }
        delete(dir);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory: the OS cleans it up eventually
        }
    }
}
