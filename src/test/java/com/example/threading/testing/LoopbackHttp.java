package com.example.threading.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * An HTTP client for tests against a server on this machine: the JDK's {@link HttpClient} with a cached pool of
 * daemon threads of its own, HTTP/1.1 unless told otherwise. Over HTTP/1.1 the JDK client opens one connection
 * per concurrent request, so {@code getAll(url, 1000)} really puts 1,000 requests in flight at once, and its
 * callbacks never wait for a thread: the client is not the bottleneck of a burst. Bodies are always read to the
 * end, as strings; every {@link Answer} carries its latency from the moment the request was handed to the
 * client.
 *
 * <p>Use one instance per test class ({@code static final}, closed in {@code @AfterAll}), e.g.
 * <pre>{@code
 * static final LoopbackHttp HTTP = new LoopbackHttp();
 * Answer answer = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/work/cached?ms=10"));
 * assertThat(answer.status()).isEqualTo(200);
 * assertThat(answer.json().path("pattern").asText()).isEqualTo("cached");
 * }</pre>
 *
 * <p>Thread-safety: every method may be called from any number of threads at once (the JDK client is
 * thread-safe and each call has its own request and answer).
 */
public final class LoopbackHttp implements AutoCloseable {

    /** Timeout of every request built by {@link #request}: above the longest poll (60 s) the tests ask for. */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(90);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicInteger CLIENTS = new AtomicInteger();

    private final ExecutorService callbacks;
    private final HttpClient client;

    /** An HTTP/1.1 client. */
    public LoopbackHttp() {
        this(HttpClient.Version.HTTP_1_1);
    }

    /** A client of the given version; {@code HTTP_2} on {@code http://} upgrades the connection with {@code Upgrade: h2c}. */
    public LoopbackHttp(HttpClient.Version version) {
        String prefix = "loopback-http-" + CLIENTS.incrementAndGet() + "-";
        AtomicInteger threads = new AtomicInteger();
        this.callbacks = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, prefix + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.client = HttpClient.newBuilder()
                .version(version)
                .connectTimeout(Duration.ofSeconds(10))
                .executor(callbacks)
                .build();
    }

    /** {@code http://127.0.0.1:<port><pathAndQuery>}. */
    public static String url(int port, String pathAndQuery) {
        return "http://127.0.0.1:" + port + pathAndQuery;
    }

    /** A request builder for {@code url} with {@link #REQUEST_TIMEOUT}: add a method, headers and a body, then {@link #send}. */
    public static HttpRequest.Builder request(String url) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(REQUEST_TIMEOUT);
    }

    /** GET and wait for the answer. */
    public Answer get(String url) {
        return send(request(url).GET().build());
    }

    /** Starts a GET; the future completes with the answer. Cancelling it does not abort the exchange (see {@link #client}). */
    public CompletableFuture<Answer> getAsync(String url) {
        return sendAsync(request(url).GET().build());
    }

    /** Sends {@code count} GETs at once and waits for all the answers, in the order sent. */
    public List<Answer> getAll(String url, int count) {
        List<CompletableFuture<Answer>> answers = IntStream.range(0, count).mapToObj(i -> getAsync(url)).toList();
        return answers.stream().map(answer -> join(answer, url)).toList();
    }

    /** {@code waves} rounds of {@code concurrency} GETs at once, each round sent when the previous one is answered; all answers. */
    public List<Answer> waves(String url, int waves, int concurrency) {
        List<Answer> answers = new ArrayList<>(waves * concurrency);
        for (int wave = 0; wave < waves; wave++) {
            answers.addAll(getAll(url, concurrency));
        }
        return answers;
    }

    /** POSTs {@code json} with {@code Content-Type: application/json} and waits for the answer. */
    public Answer postJson(String url, String json) {
        return send(request(url).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    /** Sends any request (see {@link #request}) and waits for the answer. */
    public Answer send(HttpRequest request) {
        return join(sendAsync(request), request.method() + " " + request.uri());
    }

    /** Sends any request; the future completes with the answer, or exceptionally if the exchange failed (e.g. a reset). */
    public CompletableFuture<Answer> sendAsync(HttpRequest request) {
        long start = System.nanoTime();
        return client.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .thenApply(response -> new Answer(response.statusCode(), response.body(), response,
                        (System.nanoTime() - start) / 1_000_000));
    }

    /**
     * The underlying client, for what the helpers above do not cover: e.g. cancelling the future of
     * {@code client().sendAsync(...)} aborts the exchange (an HTTP/2 client resets the stream), which cancelling a
     * future of {@link #getAsync} does not.
     */
    public HttpClient client() {
        return client;
    }

    /** Stops the client's threads (the JDK client itself can only be closed from Java 21 on). */
    @Override
    public void close() {
        callbacks.shutdownNow();
    }

    /**
     * The answer, waited for at most {@link #REQUEST_TIMEOUT} and half a minute: the JDK client's own timeout covers
     * the wait for the headers, not always the body, and a test must fail, not hang, when an exchange never ends.
     */
    private static Answer join(CompletableFuture<Answer> answer, String what) {
        try {
            return answer.get(REQUEST_TIMEOUT.toSeconds() + 30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw new UncheckedIOException(io);
            }
            throw new CompletionException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(what + ": no complete answer within " + (REQUEST_TIMEOUT.toSeconds() + 30) + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + ": interrupted while waiting for the answer", e);
        }
    }

    /**
     * One answer, its body read to the end.
     *
     * @param status    the HTTP status
     * @param body      the body as a string (empty for 204)
     * @param response  the JDK response, for anything else (headers, version)
     * @param latencyMs from handing the request to the client to the end of the body
     */
    public record Answer(int status, String body, HttpResponse<String> response, long latencyMs) {

        /** The body parsed as JSON; fails with the body in the message when it is not JSON. */
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + body, e);
            }
        }

        /** The first value of header {@code name}, or null. */
        public String header(String name) {
            return response.headers().firstValue(name).orElse(null);
        }

        /** The HTTP version the answer came with. */
        public HttpClient.Version version() {
            return response.version();
        }
    }
}
