package com.example.threading.work;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

/**
 * A test HTTP/1.1 client sized for the concurrency the tests use: the JDK client opens one connection per
 * concurrent request, and its own callbacks run on a cached pool, so the client is never the bottleneck.
 */
final class LoopbackHttp implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ExecutorService callbacks = Executors.newCachedThreadPool();
    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .executor(callbacks)
            .build();

    /** One answer with its latency measured from the moment the request was handed to the client. */
    record Answer(int status, String body, HttpResponse<String> response, long latencyMs) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + body, e);
            }
        }

        String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }
    }

    /** GET and wait for the answer. */
    Answer get(String url) {
        return concurrently(url, 1).get(0);
    }

    /** Sends {@code count} GETs at once and waits for all answers (at most 60 s). */
    List<Answer> concurrently(String url, int count) {
        List<CompletableFuture<Answer>> answers = IntStream.range(0, count).mapToObj(i -> send(url)).toList();
        return answers.stream().map(CompletableFuture::join).toList();
    }

    /** Starts one GET; the future completes with the answer. */
    CompletableFuture<Answer> send(String url) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).GET().build();
        long start = System.nanoTime();
        return client.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .thenApply(r -> new Answer(r.statusCode(), r.body(), r, (System.nanoTime() - start) / 1_000_000));
    }

    @Override
    public void close() {
        callbacks.shutdownNow();
    }
}
