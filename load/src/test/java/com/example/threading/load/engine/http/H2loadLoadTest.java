package com.example.threading.load.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.engine.H2loadRequired;
import com.example.threading.load.engine.recording.HistogramLogs;
import com.example.threading.load.engine.recording.Outcome;
import com.example.threading.load.engine.recording.PhaseResult;
import com.example.threading.load.engine.recording.Progress;
import com.example.threading.load.service.Target;
import com.example.threading.load.service.TargetOptions;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** A loader that really is an h2load process, at the asked rate over the asked connections, its log read into the recorder. */
class H2loadLoadTest {

    @Test
    void anH2loadProcessSendsTheRateOverItsConnectionsAndEveryLoggedRequestIsRecorded(@TempDir Path folder) throws Exception {
        Path h2load = H2loadRequired.path();
        Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();
        AtomicLong answered = new AtomicLong();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            if (String.valueOf(exchange.getRequestHeaders().getFirst("User-Agent")).startsWith("h2load")) {
                clientPorts.add(exchange.getRemoteAddress().getPort());
            }
            // Every fourth request is refused, so the outcomes are read from the log, not assumed.
            int status = answered.incrementAndGet() % 4 == 0 ? 503 : 200;
            exchange.sendResponseHeaders(status, 2);
            exchange.getResponseBody().write("ok".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            exchange.close();
        });
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
        try {
            URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/work?ms=0");
            TargetOptions options = new TargetOptions();
            new CommandLine(options).parseArgs("--url", "http://127.0.0.1:" + server.getAddress().getPort());
            Target target = options.open(folder, Map.of(), List.of());
            // 150 req/s at about 50 req/s per connection: 3 connections, for 2 s.
            H2loadLoad.Spec spec = H2loadLoad.Spec.atRate("loader1-test", Protocol.HTTP1, url, "/work?ms=0", 150, 50, 1024, Duration.ofSeconds(2));
            assertThat(spec.connections()).isEqualTo(3);
            H2loadLoad load = new H2loadLoad(h2load, target, spec, folder);

            java.util.concurrent.CompletableFuture<Optional<List<String>>> arguments = java.util.concurrent.CompletableFuture.supplyAsync(
                    H2loadLoadTest::runningH2loadsArguments, Executors.newSingleThreadExecutor());
            PhaseResult result = Load.runTogether(List.of(load), System.nanoTime() + TimeUnit.SECONDS.toNanos(30), Progress.start(false, "", 0))
                    .get(0);

            assertThat(arguments.get()).as("an h2load child process, as the OS sees it").isPresent();
            assertThat(arguments.get().get())
                    .containsSequence("-c", "3").containsSequence("--rps", "50.000").containsSequence("-D", "2").contains("--h1", url.toString());
            assertThat(clientPorts).as("the connections h2load opened, as the server saw them").hasSize(3);
            List<String> logged = Files.readAllLines(folder.resolve("loader1-test.tsv"));
            long ok = logged.stream().filter(line -> line.split("\t")[1].equals("200")).count();
            long refused = logged.stream().filter(line -> line.split("\t")[1].equals("503")).count();
            // 300 scheduled; h2load paces them (allow for a busy machine) and never sends more than asked (+1 per connection).
            assertThat((long) logged.size()).isBetween(150L, 303L);
            assertThat(result.sent()).as("every logged request counted").isEqualTo(logged.size());
            assertThat(result.count(Outcome.OK)).isEqualTo(ok);
            assertThat(result.count(Outcome.REJECTED_503)).isEqualTo(refused).isPositive();
            Histogram histogram = load.histogram();
            assertThat(histogram.getTotalCount()).as("one 2xx latency per 200 line").isEqualTo(ok);
            assertThat(HistogramLogs.sum(folder.resolve("loader1-test.hlog"), 0).orElseThrow().getTotalCount()).isEqualTo(ok);
            assertThat(load.exitCode()).isZero();
            assertThat(load.cpuPercent()).as("h2load's own CPU").isNotNaN().isGreaterThanOrEqualTo(0);
        } finally {
            server.stop(0);
            ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
        }
    }

    @Test
    void sizesConnectionsForTheRateWithinTheCap() {
        assertThat(H2load.connectionsFor(12_800, 100, 1024)).isEqualTo(128);
        assertThat(H2load.connectionsFor(150, 100, 1024)).isEqualTo(2);
        assertThat(H2load.connectionsFor(5, 100, 1024)).isEqualTo(1);
        assertThat(H2load.connectionsFor(12_800, 100, 16)).isEqualTo(16);
    }

    @Test
    void readsAFailedStreamAsAFailureAndSkipsACutLine() {
        assertThat(H2load.LogLine.parse("1763900000000000\t200\t800")).contains(new H2load.LogLine(1763900000000000L, 200, 800));
        assertThat(H2load.LogLine.parse("1763900000000000\t-1\t5000").orElseThrow().outcome()).isEqualTo(Outcome.OTHER_FAILURE);
        assertThat(H2load.LogLine.parse("1763900000000000\t503\t90").orElseThrow().outcome()).isEqualTo(Outcome.REJECTED_503);
        assertThat(H2load.LogLine.parse("1763900000000000\t20")).isEmpty();
    }

    /** The arguments of this JVM's h2load child while it runs (read from /proc). */
    private static Optional<List<String>> runningH2loadsArguments() {
        for (int i = 0; i < 100; i++) {
            Optional<List<String>> child = ProcessHandle.current().children().map(ProcessHandle::info)
                    .filter(info -> info.command().map(command -> command.endsWith("h2load")).orElse(false))
                    .flatMap(info -> info.arguments().stream()).map(List::of).findFirst();
            if (child.isPresent()) {
                return child;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        return Optional.empty();
    }
}
