package com.example.threading.events.stream.redis;

import com.example.threading.testing.AdminMetrics;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.ServiceJvm;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The service in a JVM of its own (this test's class path, the real config.yml, settings from the environment as in
 * production), bound to 127.0.0.1 on free ports, so a test can kill it with SIGKILL ({@link #kill}) and start it
 * again on the same ports. Its output goes to {@code target/<name>.log}.
 *
 * <p>Thread-safety: for the test thread only.
 */
final class ChildService implements AutoCloseable {

    private final LoopbackHttp http;
    private final Map<String, String> environment;
    private final File log;
    private final int appPort = freePort();
    private final int adminPort = freePort();
    private Process process;

    /** A service on {@code redisUri}, stream {@code key}, ticker off; {@code name} names its log file. */
    ChildService(LoopbackHttp http, String name, String redisUri, String key) {
        this.http = http;
        this.log = new File("target", name + ".log");
        this.environment = Map.of(
                "APP_BIND_HOST", "127.0.0.1", "APP_PORT", Integer.toString(appPort),
                "ADMIN_BIND_HOST", "127.0.0.1", "ADMIN_PORT", Integer.toString(adminPort),
                "EVENTS_TICK_PERIOD", "0", "EVENTS_STREAM", "redis",
                "EVENTS_REDIS_URI", redisUri, "EVENTS_REDIS_KEY", key);
    }

    /** Starts the JVM and waits (up to 90 s: a cold JVM on a busy machine) until {@code events-stream} is healthy. */
    ChildService startHealthy() throws IOException {
        process = ServiceJvm.builder(log, environment).start();
        AdminMetrics admin = admin();
        Await.until(() -> {
            if (!process.isAlive()) {
                throw new AssertionError("the child service exited with " + process.exitValue() + ", see " + log);
            }
            try {
                return admin.healthy(RedisEventStream.HEALTH_CHECK);
            } catch (RuntimeException notUpYet) {
                return false;
            }
        }, Duration.ofSeconds(90), "the child service healthy (log: " + log + ")");
        return this;
    }

    /** SIGKILL (Process.destroyForcibly on Linux), waited for by its PID. */
    void kill() throws InterruptedException {
        long pid = process.pid();
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("process " + pid + " survived SIGKILL");
        }
    }

    /** {@code http://127.0.0.1:<app port><pathAndQuery>}. */
    String url(String pathAndQuery) {
        return LoopbackHttp.url(appPort, pathAndQuery);
    }

    AdminMetrics admin() {
        return new AdminMetrics(http, adminPort);
    }

    /** The PID of the running JVM. */
    long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
