package com.example.threading.load.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.engine.H2loadRequired;
import com.example.threading.load.service.ServerCpu;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** h2load in a closed loop: its command line, its counts read from its output, and a real run's measured stretch. */
class H2loadStretchTest {

    @Test
    void theClosedLoopCommandWarmsUpThenMeasuresAndPostsABodyWhenGivenOne() {
        URI url = URI.create("http://127.0.0.1:8080/events?topic=t");
        assertThat(H2load.closedLoop(Path.of("/usr/bin/h2load"), url, 16, Duration.ofSeconds(20), Duration.ofSeconds(10), Optional.empty(), List.of()))
                .containsExactly("/usr/bin/h2load", "--h1", "-c", "16", "-t", "1", "-m", "1", "--warm-up-time=20000ms", "-D", "10000ms",
                        url.toString());
        assertThat(H2load.closedLoop(Path.of("h2load"), url, 4, Duration.ZERO, Duration.ofMillis(1500), Optional.of(Path.of("/r/body.json")),
                List.of("Content-Type: application/json")))
                .noneMatch(argument -> argument.startsWith("--warm-up-time")).containsSequence("-D", "1500ms")
                .containsSequence("-d", "/r/body.json").containsSequence("-H", "Content-Type: application/json").endsWith(url.toString());
    }

    @Test
    void readsTheCountsOfTheMeasuredDurationFromH2loadsOutput() {
        Optional<H2load.Summary> summary = H2load.Summary.parse("""
                Main benchmark duration is over for thread #0. Stopping all clients.
                finished in 3.00s, 262.67 req/s, 71.66KB/s
                requests: 788 total, 790 started, 788 done, 12 succeeded, 776 failed, 0 errored, 0 timeout
                status codes: 12 2xx, 0 3xx, 0 4xx, 776 5xx
                """);
        assertThat(summary).contains(new H2load.Summary(788, 776, 0, 0, 12, 0, 0, 776));
        assertThat(summary.get().all2xx()).isFalse();
        assertThat(summary.get().problems()).isEqualTo("776 non-2xx (3xx 0, 4xx 0, 5xx 776), 776 failed, 0 errored, 0 timed out");
        assertThat(H2load.Summary.parse("requests: 5 total, 5 started, 5 done, 5 succeeded, 0 failed, 0 errored, 0 timeout\n"
                + "status codes: 5 2xx, 0 3xx, 0 4xx, 0 5xx").orElseThrow().all2xx()).isTrue();
        assertThat(H2load.Summary.parse("Stopped all clients for thread #0")).as("killed before it printed its counts").isEmpty();
    }

    @Test
    void theServersCpuIsReadOverTheStretchWhoseRequestsH2loadCounts(@TempDir Path folder) throws Exception {
        Path h2load = H2loadRequired.path();
        AtomicLong answered = new AtomicLong();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            answered.incrementAndGet();
            exchange.sendResponseHeaders(200, 2);
            exchange.getResponseBody().write("ok".getBytes(StandardCharsets.US_ASCII));
            exchange.close();
        });
        ExecutorService threads = Executors.newFixedThreadPool(2);
        server.setExecutor(threads);
        server.start();
        try {
            URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/ping");
            H2loadStretch.Spec spec = new H2loadStretch.Spec("h2load-test", url, 2, Duration.ofMillis(500), Duration.ofSeconds(1), Optional.empty(), List.of());

            // This JVM is the server: its CPU is what is read at the stretch's ends.
            H2loadStretch.Result result = H2loadStretch.run(h2load, new ServerCpu(Optional.of(ProcessHandle.current())), spec, folder,
                    System.nanoTime() + TimeUnit.SECONDS.toNanos(30));

            assertThat(result.measured()).as("both ends announced, counts printed: %s", result).isTrue();
            assertThat(result.exitCode()).isZero();
            assertThat(result.seconds()).as("the measured second, not the warm-up").isBetween(0.9, 1.6);
            long ok = result.summary().orElseThrow().status2xx();
            assertThat(ok).as("the warm-up's requests are not counted").isPositive().isLessThan(answered.get());
            assertThat(result.summary().get().all2xx()).isTrue();
            assertThat(result.serverCpuNanos()).isPositive();
            assertThat(result.serverCpuMicrosPerOk()).isPositive();
            assertThat(folder.resolve("h2load-test.txt")).content().contains(H2load.MEASURED_START).contains("status codes:");
        } finally {
            server.stop(0);
            threads.shutdownNow();
        }
    }
}
