package com.example.threading.events.publish;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.events.access.OpenTopicAccess;
import com.example.threading.events.access.PublishAccess;
import com.example.threading.events.http.AccessGate;
import com.example.threading.events.http.EventRoutes;
import com.example.threading.events.http.EventsHttp;
import com.example.threading.events.http.JsonResponses;
import com.example.threading.events.http.PollLimits;
import com.example.threading.events.hub.EventHub;
import com.example.threading.events.hub.HubMetrics;
import com.example.threading.events.hub.Hubs;
import com.example.threading.events.hub.ShutdownSpread;
import com.example.threading.events.longpoll.LongPollTransport;
import com.example.threading.events.stream.Event;
import com.example.threading.events.stream.EventSink;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import java.net.http.HttpRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;


/**
 * {@code POST /events} against sinks that fail, throw, never answer or answer late, on a real Jetty with the
 * long-poll servlet (the application always runs the in-process stream, which cannot fail): a 503 JSON answer with
 * Retry-After, counted, never a 500; and no Jetty thread held while a stage is pending.
 */
class EventSinkFailureTest {

    private static final long SHORT_TIMEOUT_MS = 500;
    private static final long LONG_TIMEOUT_MS = 60_000;
    private static final int JETTY_THREADS = 16;

    private final ObjectMapper mapper = Jackson.newObjectMapper();
    private final MetricRegistry metrics = new MetricRegistry();
    private final AtomicLong ids = new AtomicLong();
    private volatile Function<JsonNode, CompletionStage<Event>> behaviour;
    private Server server;
    private LoopbackHttp http;
    private String eventsUrl;
    private String batchUrl;

    /** Starts Jetty with the servlet; each test sets its publish timeout (a short one to see it fire, else a long one). */
    private void startJetty(long publishTimeoutMs) throws Exception {
        JsonResponses json = new JsonResponses(mapper);
        HubMetrics hubMetrics = new HubMetrics(metrics);
        EventHub hub = Hubs.hub(16, 100, Runnable::run, mapper, hubMetrics, null, System::nanoTime);
        EventSink sink = (topic, data) -> behaviour.apply(data);
        AccessGate access = new AccessGate(new OpenTopicAccess(new PublishAccess(null)), new PollLimits(5, 10, 4, json), 1,
                metrics, Clock.systemUTC());
        EventsHttp events = new EventsHttp(hub, hubMetrics, json, access, 1, new ShutdownSpread(0));
        EventRoutes routes = new EventRoutes(json);
        LongPollTransport.register(routes, events);
        PublishEndpoints.register(routes, events, sink, new PublishLimits(4096, 64, 5000, publishTimeoutMs, 1, 50), metrics);
        QueuedThreadPool pool = new QueuedThreadPool(JETTY_THREADS, 4);
        server = new Server(pool);
        ServerConnector connector = new ServerConnector(server, 1, 1);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        routes.servlets().forEach((path, servlet) -> {
            ServletHolder holder = new ServletHolder(servlet);
            holder.setAsyncSupported(true);
            context.addServlet(holder, path);
        });
        server.setHandler(context);
        server.start();
        http = new LoopbackHttp();
        eventsUrl = LoopbackHttp.url(connector.getLocalPort(), "/events");
        batchUrl = LoopbackHttp.url(connector.getLocalPort(), "/events/batch");
    }

    @AfterEach
    void stopJetty() throws Exception {
        if (http != null) {
            http.close();
        }
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void aFailedStageIsA503WithRetryAfterAndCounted() throws Exception {
        startJetty(LONG_TIMEOUT_MS);
        behaviour = data -> CompletableFuture.failedFuture(new IllegalStateException("store unreachable"));
        assertUnavailable(http.postJson(eventsUrl, "{\"a\":1}"));
        assertThat(failures()).isEqualTo(1);
    }

    @Test
    void aSinkThatThrowsInsteadOfFailingItsStageIsAnswered503Too() throws Exception {
        startJetty(LONG_TIMEOUT_MS);
        behaviour = data -> {
            throw new IllegalStateException("broken sink");
        };
        assertUnavailable(http.postJson(eventsUrl, "{\"a\":1}"));
        assertThat(failures()).isEqualTo(1);
    }

    @Test
    void aStageThatNeverCompletesIsAnswered503AtThePublishTimeout() throws Exception {
        startJetty(SHORT_TIMEOUT_MS);
        behaviour = data -> new CompletableFuture<>();
        long start = System.nanoTime();
        LoopbackHttp.Answer response = http.postJson(eventsUrl, "{\"a\":1}");
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertUnavailable(response);
        assertThat(elapsedMs).isBetween(SHORT_TIMEOUT_MS - 50, SHORT_TIMEOUT_MS + PublishRequest.BACKSTOP_MARGIN_MS + 5_000);
        assertThat(failures()).isEqualTo(1);
    }

    @Test
    void aBatchTheStreamTookInPartIs503NamingEachEventTakenAndNullForTheOthers() throws Exception {
        startJetty(SHORT_TIMEOUT_MS);
        behaviour = data -> switch (data.asText()) {
            case "refused" -> CompletableFuture.failedFuture(new IllegalStateException("a master is down"));
            case "never" -> new CompletableFuture<>();
            default -> CompletableFuture.completedFuture(Hubs.event(ids.incrementAndGet(), data));
        };
        LoopbackHttp.Answer partly = http.postJson(batchUrl, "[{\"data\":\"a\"},{\"data\":\"refused\"},{\"data\":\"b\"},{\"data\":\"never\"}]");
        assertThat(partly.status()).as(partly.body()).isEqualTo(503);
        assertThat(partly.header("Retry-After")).isEqualTo("1");
        JsonNode body = partly.json();
        assertThat(body.get("code").asInt()).isEqualTo(503);
        assertThat(body.get("message").asText()).startsWith("2 of 4 events were not published (null in events)");
        JsonNode events = body.get("events");
        assertThat(events).hasSize(4);
        assertThat(events.get(0).get("data").asText()).isEqualTo("a");
        assertThat(events.get(1).isNull()).isTrue();
        assertThat(events.get(2).get("data").asText()).isEqualTo("b");
        assertThat(events.get(3).isNull()).as("not taken within the publish timeout").isTrue();
        assertThat(failures()).as("one failed request").isEqualTo(1);

        LoopbackHttp.Answer whole = http.postJson(batchUrl, "[{\"data\":\"c\"}]");
        assertThat(whole.status()).isEqualTo(200);
        assertThat(whole.json().get("events").get(0).get("data").asText()).isEqualTo("c");
    }

    @Test
    void pendingStagesHoldNoJettyThread() throws Exception {
        startJetty(LONG_TIMEOUT_MS);
        ConcurrentLinkedQueue<CompletableFuture<Event>> pending = new ConcurrentLinkedQueue<>();
        behaviour = data -> {
            CompletableFuture<Event> stage = new CompletableFuture<>();
            pending.add(stage);
            return stage.thenApply(ignored -> Hubs.event(ids.incrementAndGet(), data));
        };
        int posts = 3 * JETTY_THREADS;
        List<CompletableFuture<LoopbackHttp.Answer>> answers = new ArrayList<>();
        for (int i = 0; i < posts; i++) {
            answers.add(http.sendAsync(publishRequest("{\"n\":" + i + "}")));
        }
        // All of them are waiting for the stream at once, three times as many as Jetty has threads.
        Await.until(() -> pending.size() == posts, Duration.ofSeconds(30), "every POST handed to the sink");
        assertThat(answers).noneMatch(CompletableFuture::isDone);

        // The store answers on its own thread, as an I/O thread of a store client would.
        var storeThread = Executors.newSingleThreadExecutor();
        try {
            storeThread.execute(() -> pending.forEach(stage -> stage.complete(null)));
            for (CompletableFuture<LoopbackHttp.Answer> answer : answers) {
                LoopbackHttp.Answer response = answer.get(30, TimeUnit.SECONDS);
                assertThat(response.status()).isEqualTo(200);
                assertThat(response.json().get("id").asLong()).isBetween(1L, (long) posts);
            }
        } finally {
            storeThread.shutdownNow();
        }
        assertThat(failures()).isZero();
    }

    private HttpRequest publishRequest(String json) {
        return LoopbackHttp.request(eventsUrl).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
    }

    private long failures() {
        return metrics.meter("events.publish.failures").getCount();
    }

    private static void assertUnavailable(LoopbackHttp.Answer response) {
        assertThat(response.status()).isEqualTo(503);
        assertThat(response.header("Retry-After")).isEqualTo("1");
        assertThat(response.header("Content-Type")).startsWith("application/json");
        JsonNode body = response.json();
        assertThat(body.get("code").asInt()).isEqualTo(503);
        assertThat(body.get("message").asText()).isEqualTo("event stream unavailable, retry later");
    }
}
