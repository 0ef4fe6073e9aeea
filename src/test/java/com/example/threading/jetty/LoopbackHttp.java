package com.example.threading.jetty;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** An HTTP/1.1 client on a pool of its own for the strategy tests: bursts of {@code /work/blocking} and the admin metrics. */
final class LoopbackHttp implements AutoCloseable {

    private final ExecutorService threads = Executors.newFixedThreadPool(4);
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .executor(threads)
            .build();

    /** The gauges of the service whose admin connector listens on {@code adminPort}. */
    AdminMetrics adminMetrics(int adminPort) {
        return new AdminMetrics(client, adminPort);
    }

    /** {@code waves} rounds of {@code concurrency} requests each, every request blocking its Jetty thread {@code ms}; returns how many answered 200. */
    int burst(int appPort, int waves, int concurrency, int ms) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + appPort + "/work/blocking?ms=" + ms))
                .timeout(Duration.ofSeconds(20))
                .build();
        int ok = 0;
        for (int wave = 0; wave < waves; wave++) {
            List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
            for (int i = 0; i < concurrency; i++) {
                responses.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
            }
            for (CompletableFuture<HttpResponse<String>> response : responses) {
                if (response.get(30, TimeUnit.SECONDS).statusCode() == 200) {
                    ok++;
                }
            }
        }
        return ok;
    }

    /** Stops the client's threads (HttpClient itself is not closeable on Java 17). */
    @Override
    public void close() {
        threads.shutdownNow();
    }
}
