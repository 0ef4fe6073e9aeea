package com.example.threading.metrics;

import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.ServiceJvm;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;

/**
 * The service as operators run it ({@code Application.run}: JVM metrics included, which {@code DropwizardTestSupport}
 * leaves out) in a JVM of its own: this test's class path, the real config.yml, 127.0.0.1 on free ports, the ticker
 * every 200 ms. Output goes to {@code target/<name>.log}; {@link #close} stops it by its process (SIGTERM, then
 * SIGKILL), also when a test failed.
 *
 * <p>Thread-safety: for the test thread only.
 */
final class LiveInstance implements AutoCloseable {

    private static final int BIND_ATTEMPTS = 3;

    private final Process process;
    private final int appPort;
    private final int adminPort;

    private LiveInstance(Process process, int appPort, int adminPort) {
        this.process = process;
        this.appPort = appPort;
        this.adminPort = adminPort;
    }

    /**
     * Starts the service and waits (up to 90 s: a cold JVM on a busy machine) until its admin port answers. A port found
     * free may be taken before the service binds it (another test's client connection gets it as its ephemeral port):
     * then the start is tried again on other ports, at most {@value #BIND_ATTEMPTS} times.
     */
    static LiveInstance start(String name, LoopbackHttp http) throws IOException {
        File log = new File("target", name + ".log");
        for (int attempt = 1; ; attempt++) {
            long logBefore = log.length(); // the log is appended to: only this attempt's lines say why it failed
            int appPort = ChildProcesses.freePort();
            int adminPort = ChildProcesses.freePort();
            ProcessBuilder builder = ServiceJvm.builder(log, Map.of(
                    "APP_BIND_HOST", "127.0.0.1", "APP_PORT", Integer.toString(appPort),
                    "ADMIN_BIND_HOST", "127.0.0.1", "ADMIN_PORT", Integer.toString(adminPort),
                    "EVENTS_TICK_PERIOD", "200ms"));
            LiveInstance instance = new LiveInstance(builder.start(), appPort, adminPort);
            try {
                ChildProcesses.awaitOk(instance.process, http, instance.adminUrl("/ping"), Duration.ofSeconds(90),
                        "the service (log: " + log + ")");
                return instance;
            } catch (AssertionError failed) {
                if (attempt >= BIND_ATTEMPTS || !Files.readString(log.toPath()).substring((int) logBefore).contains("Address already in use")) {
                    throw failed;
                }
            }
        }
    }

    /** {@code http://127.0.0.1:<application port><pathAndQuery>}. */
    String url(String pathAndQuery) {
        return LoopbackHttp.url(appPort, pathAndQuery);
    }

    /** {@code http://127.0.0.1:<admin port><path>}. */
    String adminUrl(String path) {
        return LoopbackHttp.url(adminPort, path);
    }

    /** {@code 127.0.0.1:<admin port>}, a Prometheus scrape target. */
    String adminTarget() {
        return "127.0.0.1:" + adminPort;
    }

    @Override
    public void close() {
        ChildProcesses.stop(process);
    }
}
