package com.example.threading.metrics;

import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real Prometheus server (Debian's {@code prometheus}) for a test: listens on 127.0.0.1 on a free port, keeps its
 * configuration and data in {@code directory}, scrapes one target's {@code /prometheus} every second as job
 * {@code threading-reference}. {@link #close} stops it by its process (SIGTERM, then SIGKILL). Output goes to
 * {@code target/prometheus-server.log}.
 *
 * <p>Thread-safety: for the test thread only.
 */
final class PrometheusServer implements AutoCloseable {

    private final Process process;
    private final int port;
    private final LoopbackHttp http;

    private PrometheusServer(Process process, int port, LoopbackHttp http) {
        this.process = process;
        this.port = port;
        this.http = http;
    }

    /** Starts Prometheus scraping {@code target} ({@code host:port}) and waits (up to 60 s) until it is ready. */
    static PrometheusServer start(String target, Path directory, LoopbackHttp http) throws IOException {
        Path binary = Promtool.binary("prometheus");
        Path config = directory.resolve("prometheus.yml");
        Files.writeString(config, String.join("\n",
                "global:", "  scrape_interval: 1s", "  scrape_timeout: 1s",
                "scrape_configs:", "  - job_name: threading-reference", "    metrics_path: /prometheus",
                "    static_configs:", "      - targets: [\"" + target + "\"]", ""));
        int port = ChildProcesses.freePort();
        Process process = new ProcessBuilder(List.of(binary.toString(), "--config.file=" + config,
                "--storage.tsdb.path=" + directory.resolve("data"), "--web.listen-address=127.0.0.1:" + port,
                "--storage.tsdb.retention.time=1h"))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(new File("target", "prometheus-server.log")))
                .start();
        PrometheusServer server = new PrometheusServer(process, port, http);
        ChildProcesses.awaitOk(process, http, LoopbackHttp.url(port, "/-/ready"), Duration.ofSeconds(60),
                "prometheus (log: target/prometheus-server.log)");
        return server;
    }

    /** The instant vector {@code expression} evaluates to now: {@code data.result} of {@code /api/v1/query}. */
    JsonNode query(String expression) {
        LoopbackHttp.Answer answer = http.get(LoopbackHttp.url(port,
                "/api/v1/query?query=" + URLEncoder.encode(expression, StandardCharsets.UTF_8)));
        if (answer.status() != 200) {
            throw new AssertionError(expression + ": " + answer.status() + " " + answer.body());
        }
        return answer.json().path("data").path("result");
    }

    @Override
    public void close() {
        ChildProcesses.stop(process);
    }
}
