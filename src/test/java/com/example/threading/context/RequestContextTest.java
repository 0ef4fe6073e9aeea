package com.example.threading.context;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.CapturedLog;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.example.threading.testing.TestSocket;
import com.sun.net.httpserver.HttpServer;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.eclipse.jetty.websocket.client.WebSocketClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The request's context on the real service, with an in-memory tracing SDK and a stub downstream: every answer of
 * the application port carries {@code X-Request-Id} (the client's when valid, else a new one; errors included), a
 * trace that came in continues (a malformed one starts anew, never an error), and each hand-off (a /work pool, Jersey's
 * resume, the fan-out's client pool, a parked poll answered in a batch) logs on its other thread with the request's
 * own id and trace id; downstream calls carry both, but for {@code via=common}, the pitfall.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class RequestContextTest {

    private static final InMemorySpanExporter SPANS = InMemorySpanExporter.create();
    private static final ConcurrentLinkedQueue<Map<String, String>> DOWNSTREAM = new ConcurrentLinkedQueue<>();
    private static final ExecutorService STUB_THREADS = Executors.newFixedThreadPool(8);
    private static final HttpServer STUB = downstream();
    private static final Pattern NEW_ID = Pattern.compile("[0-9a-f]{32}");

    static {
        // The service takes the global OpenTelemetry when one is set (as the Java agent sets it): here a test SDK.
        GlobalOpenTelemetry.resetForTest();
        GlobalOpenTelemetry.set(OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(SPANS)).build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build());
    }

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("events.tickPeriod", "0s"),
            ConfigOverride.config("client.downstreamUrl", "http://127.0.0.1:" + STUB.getAddress().getPort() + "/stub"));

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @RegisterExtension
    final CapturedLog log = new CapturedLog();

    @BeforeEach
    void debugTheHandOffs() {
        log.debug("com.example.threading.work.SimulatedWork", "com.example.threading.events.http.NonBlockingWrite");
        SPANS.reset();
        DOWNSTREAM.clear();
    }

    @AfterAll
    static void stop() {
        HTTP.close();
        STUB.stop(0);
        STUB_THREADS.shutdownNow();
        GlobalOpenTelemetry.resetForTest();
    }

    @Test
    void aValidRequestIdIsEchoedAndAnyOtherReplaced() {
        assertThat(get("/work/blocking?ms=0", "X-Request-Id", "order-42.a_b:c").header("X-Request-Id")).isEqualTo("order-42.a_b:c");
        for (String bad : List.of("", "has space", "x".repeat(RequestIds.MAX_LENGTH + 1), "semi;colon", "ünicode")) {
            Answer answer = HTTP.send(LoopbackHttp.request(url("/work/blocking?ms=0")).header("X-Request-Id", bad).build());
            assertThat(answer.header("X-Request-Id")).as("'%s' replaced", bad).matches(NEW_ID);
        }
        assertThat(HTTP.get(url("/work/blocking?ms=0")).header("X-Request-Id")).as("none sent").matches(NEW_ID);
    }

    @Test
    void everyAnswerCarriesItsIdErrorsIncluded() {
        assertThat(get("/no-such-path", "X-Request-Id", "e-404").header("X-Request-Id")).isEqualTo("e-404");
        Answer badQuery = get("/work/blocking?ms=abc", "X-Request-Id", "e-400");
        assertThat(badQuery.status()).isEqualTo(400);
        assertThat(badQuery.header("X-Request-Id")).isEqualTo("e-400");
        Answer badPoll = get("/events?timeout=oops", "X-Request-Id", "e-400-events");
        assertThat(badPoll.status()).isEqualTo(400);
        assertThat(badPoll.header("X-Request-Id")).isEqualTo("e-400-events");
        Answer wrongMethod = HTTP.send(LoopbackHttp.request(url("/events")).header("X-Request-Id", "e-405")
                .method("PUT", HttpRequest.BodyPublishers.noBody()).build());
        assertThat(wrongMethod.status()).isEqualTo(405);
        assertThat(wrongMethod.header("X-Request-Id")).isEqualTo("e-405");
    }

    @Test
    void anIncomingTraceContinuesAndAMalformedOneStartsAnew() {
        String trace = "0af7651916cd43dd8448eb211c80319c";
        Answer traced = get("/work/blocking?ms=0", "traceparent", "00-" + trace + "-b7ad6b7169203331-01");
        assertThat(traced.status()).isEqualTo(200);
        SpanData server = serverSpan(traced.header("X-Request-Id"));
        assertThat(server.getTraceId()).isEqualTo(trace);
        assertThat(server.getParentSpanId()).isEqualTo("b7ad6b7169203331");

        Answer malformed = get("/work/blocking?ms=0", "traceparent", "00-not-a-trace-01");
        assertThat(malformed.status()).as("a malformed traceparent is no client error").isEqualTo(200);
        SpanData fresh = serverSpan(malformed.header("X-Request-Id"));
        assertThat(fresh.getTraceId()).isNotEqualTo(trace).matches("[0-9a-f]{32}");
        assertThat(fresh.getParentSpanContext().isValid()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"thread-per-request", "cached", "bounded", "virtual"})
    void aWorkPatternsPoolThreadRunsInTheRequestsContext(String pattern) {
        String id = "work-" + pattern;
        Answer answer = get("/work/" + pattern + "?ms=5", "X-Request-Id", id);
        if (answer.status() == 501) {
            assertThat(Runtime.version().feature()).as("only JDK 17 lacks virtual threads").isLessThan(21);
            return;
        }
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        String thread = answer.json().get("thread").asText();
        assertThat(thread).as("the work ran on another thread than Jetty's").doesNotStartWith("dw-");
        ILoggingEvent waited = onlyLine("com.example.threading.work.SimulatedWork", id);
        assertThat(waited.getThreadName()).isEqualTo(thread);
        assertThat(waited.getMDCPropertyMap().get(RequestContext.MDC_TRACE_ID)).isEqualTo(serverSpan(id).getTraceId());
    }

    @Test
    void aPollParkedInABatchIsAnsweredInItsOwnContextEach() throws Exception {
        int polls = 40;
        List<CompletableFuture<Answer>> parked = new ArrayList<>();
        for (int i = 0; i < polls; i++) {
            parked.add(HTTP.sendAsync(LoopbackHttp.request(url("/events?topic=context-batch&timeout=30"))
                    .header("X-Request-Id", "poll-" + i).build()));
        }
        Await.until(() -> gauge("events.parked") == polls,
                Duration.ofSeconds(20), polls + " polls parked");

        assertThat(HTTP.send(LoopbackHttp.request(url("/events?topic=context-batch"))
                .header("Content-Type", "application/json").header("X-Request-Id", "the-publisher")
                .POST(HttpRequest.BodyPublishers.ofString("{\"n\":1}")).build()).status()).isEqualTo(200);

        for (int i = 0; i < polls; i++) {
            Answer answer = parked.get(i).get(30, TimeUnit.SECONDS);
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.header("X-Request-Id")).isEqualTo("poll-" + i);
        }
        Await.until(() -> log.of("com.example.threading.events.http.NonBlockingWrite").size() >= polls + 1,
                Duration.ofSeconds(10), "every answer written");
        List<String> answeredAs = log.of("com.example.threading.events.http.NonBlockingWrite").stream()
                .map(event -> event.getMDCPropertyMap().get(RequestContext.MDC_REQUEST_ID)).toList();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < polls; i++) {
            expected.add("poll-" + i);
        }
        expected.add("the-publisher");
        assertThat(answeredAs).as("each answer written in its own request's context, never the publisher's or another poll's")
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void aStreamAnswersEachEventInItsOwnContext() throws Exception {
        log.debug("com.example.threading.events.sse.SseStream");
        HttpResponse<Stream<String>> stream = HTTP.client().send(LoopbackHttp.request(url("/events/stream?topic=context-sse"))
                .header("X-Request-Id", "the-stream").build(), HttpResponse.BodyHandlers.ofLines());
        try (Stream<String> lines = stream.body()) {
            assertThat(stream.headers().firstValue("X-Request-Id")).hasValue("the-stream");
            Iterator<String> reading = lines.iterator();
            Await.until(() -> gauge("events.parked") == 1, Duration.ofSeconds(20), "the stream's poll parked");
            assertThat(HTTP.send(LoopbackHttp.request(url("/events?topic=context-sse"))
                    .header("Content-Type", "application/json").header("X-Request-Id", "sse-publisher")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"n\":1}")).build()).status()).isEqualTo(200);
            while (!reading.next().startsWith("data:")) {
                // the retry line, then the event's id line
            }
        }
        ILoggingEvent answered = onlyLine("com.example.threading.events.sse.SseStream", "the-stream");
        assertThat(answered.getFormattedMessage()).startsWith("stream followed");
        assertThat(log.of("com.example.threading.events.sse.SseStream"))
                .noneMatch(line -> "sse-publisher".equals(line.getMDCPropertyMap().get(RequestContext.MDC_REQUEST_ID)));
    }

    @Test
    void aSocketAnswersAndPublishesInItsOwnContext() throws Exception {
        log.debug("com.example.threading.events.websocket.EventSocket", "com.example.threading.events.websocket.SocketPublishing");
        WebSocketClient client = new WebSocketClient();
        client.start();
        try (TestSocket socket = TestSocket.open(client, URI.create("ws://127.0.0.1:" + APP.getLocalPort() + "/events/ws?topic=context-ws"),
                Map.of("X-Request-Id", "the-socket"), Duration.ofSeconds(20))) {
            Await.until(() -> gauge("events.parked") == 1, Duration.ofSeconds(20), "the socket's poll parked");
            assertThat(HTTP.send(LoopbackHttp.request(url("/events?topic=context-ws"))
                    .header("Content-Type", "application/json").header("X-Request-Id", "ws-publisher")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"n\":1}")).build()).status()).isEqualTo(200);
            assertThat(socket.next(Duration.ofSeconds(20)).path("type").asText()).isEqualTo("event");
            socket.send("{\"publish\":{\"topic\":\"context-ws-out\",\"data\":2}}");
            assertThat(socket.next(Duration.ofSeconds(20)).path("type").asText()).isEqualTo("ack");
        } finally {
            client.stop();
        }
        assertThat(onlyLine("com.example.threading.events.websocket.EventSocket", "the-socket").getFormattedMessage())
                .startsWith("socket sent");
        assertThat(onlyLine("com.example.threading.events.websocket.SocketPublishing", "the-socket").getFormattedMessage())
                .startsWith("socket published");
        assertThat(log.of("com.example.threading.events.websocket.EventSocket"))
                .noneMatch(line -> "ws-publisher".equals(line.getMDCPropertyMap().get(RequestContext.MDC_REQUEST_ID)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"managed", "rxjava", "callback"})
    void everyDownstreamCallCarriesTheRequestIdAndTheTrace(String via) {
        String id = "fanout-" + via;
        Answer answer = get("/fanout?n=6&ms=0&via=" + via, "X-Request-Id", id);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.json().get("succeeded").asInt()).isEqualTo(6);

        String trace = serverSpan(id).getTraceId();
        assertThat(DOWNSTREAM).hasSize(6).allSatisfy(headers -> {
            assertThat(headers.get("x-request-id")).isEqualTo(id);
            assertThat(headers.get("traceparent")).startsWith("00-" + trace + "-");
        });
        Await.until(() -> SPANS.getFinishedSpanItems().stream().filter(span -> span.getKind() == SpanKind.CLIENT).count() == 6,
                Duration.ofSeconds(10), "a client span per call");
        assertThat(SPANS.getFinishedSpanItems()).filteredOn(span -> span.getKind() == SpanKind.CLIENT)
                .allSatisfy(span -> assertThat(span.getTraceId()).isEqualTo(trace));
    }

    @Test
    void theCommonPoolsCallsGoOutWithNeitherTheIdNorTheRequestsTrace() {
        Answer answer = get("/fanout?n=3&ms=0&via=common", "X-Request-Id", "fanout-common");
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        String trace = serverSpan("fanout-common").getTraceId();
        assertThat(DOWNSTREAM).hasSize(3).allSatisfy(headers -> {
            assertThat(headers).as("supplyAsync ran the call in no request's context").doesNotContainKey("x-request-id");
            // With a tracing SDK the call starts a trace of its own: the request's is lost all the same.
            assertThat(headers.getOrDefault("traceparent", "")).doesNotContain(trace);
        });
    }

    /** The (first) line {@code logger} logged in the context of request {@code id}. */
    private ILoggingEvent onlyLine(String logger, String id) {
        return log.firstWithMdc(logger, RequestContext.MDC_REQUEST_ID, id);
    }

    /** The server span of request {@code requestId} (which the span carries as its attribute {@code request.id}). */
    private static SpanData serverSpan(String requestId) {
        Await.until(() -> serverSpans(requestId).size() == 1, Duration.ofSeconds(10), "the server span of " + requestId);
        return serverSpans(requestId).get(0);
    }

    private static List<SpanData> serverSpans(String requestId) {
        return SPANS.getFinishedSpanItems().stream().filter(span -> span.getKind() == SpanKind.SERVER)
                .filter(span -> requestId.equals(span.getAttributes().get(AttributeKey.stringKey(RequestContext.REQUEST_ID))))
                .toList();
    }

    private static int gauge(String name) {
        return ((Number) APP.getEnvironment().metrics().getGauges().get(name).getValue()).intValue();
    }

    private static Answer get(String pathAndQuery, String header, String value) {
        return HTTP.send(LoopbackHttp.request(url(pathAndQuery)).header(header, value).build());
    }

    private static String url(String pathAndQuery) {
        return LoopbackHttp.url(APP.getLocalPort(), pathAndQuery);
    }

    private static HttpServer downstream() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
            server.createContext("/stub", exchange -> {
                Map<String, String> headers = new HashMap<>();
                exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values.get(0)));
                DOWNSTREAM.add(headers);
                byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.setExecutor(STUB_THREADS);
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
