package com.example.threading.events.longpoll;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.AdminMetrics;
import com.example.threading.testing.Await;
import com.example.threading.testing.JettyInFlight;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.example.threading.testing.RawHttpConnection;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** GET/POST /events and GET /events/blocking on the real server: batch answers, cursors, timeouts, limits, publish rules. */
@ExtendWith(DropwizardExtensionsSupport.class)
class LongPollEndpointTest {

    private static final String TOKEN = "test-token-123";
    private static final int MAX_PARKED = 1000;
    private static final int HISTORY = 64;

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("events.tickPeriod", "0"), // a bare 0 turns the ticker off
            ConfigOverride.config("events.publishToken", TOKEN),
            ConfigOverride.config("events.maxParked", Integer.toString(MAX_PARKED)),
            ConfigOverride.config("events.historySize", Integer.toString(HISTORY)),
            ConfigOverride.config("events.maxTimeout", "60s"));

    static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void thousandParkedPollsAreAnsweredInOneBatchAfterOneEvent() throws Exception {
        awaitEarlierRequestsCompleted();
        long cursor = lastId();
        long batchesBefore = metrics().histogram("events.batch-size").getCount();
        long timedBefore = metrics().timer("events.event-to-last-write").getCount();
        long queuedBefore = metrics().timer("events.event-to-queued").getCount();
        long rejectedBefore = metrics().meter("events.rejected").getCount();

        List<CompletableFuture<Answer>> polls = new ArrayList<>();
        for (int i = 0; i < MAX_PARKED; i++) {
            polls.add(HTTP.getAsync(app("/events?after=" + cursor + "&timeout=60")));
        }
        Await.until(() -> parked() == MAX_PARKED, Duration.ofSeconds(60), "all polls parked");

        Answer full = HTTP.get(app("/events?after=" + cursor + "&timeout=60"));
        assertThat(full.status()).isEqualTo(503);
        assertThat(full.header("Retry-After")).isEqualTo("1");
        assertThat(full.json().get("code").asInt()).isEqualTo(503);
        assertThat(metrics().meter("events.rejected").getCount()).isEqualTo(rejectedBefore + 1);

        JsonNode published = post("{\"batch\":1000}", TOKEN).json();
        // Well before the polls' 60 s timeout: had the batch waited for it, this would fail (and each answer be a 204).
        CompletableFuture.allOf(polls.toArray(CompletableFuture[]::new)).get(40, TimeUnit.SECONDS);

        for (CompletableFuture<Answer> poll : polls) {
            Answer response = poll.join();
            assertThat(response.status()).isEqualTo(200);
            JsonNode body = response.json();
            assertThat(body.get("events")).hasSize(1);
            assertThat(body.get("events").get(0).get("id").asLong()).isEqualTo(cursor + 1).isEqualTo(published.get("id").asLong());
            assertThat(body.get("events").get(0).get("data").get("batch").asInt()).isEqualTo(1000);
            assertThat(body.get("missed").asBoolean()).isFalse();
            assertThat(body.get("lastId").asLong()).isEqualTo(cursor + 1);
        }
        Await.until(() -> parked() == 0, Duration.ofSeconds(10), "no poll left parked");
        assertThat(metrics().histogram("events.batch-size").getCount()).isEqualTo(batchesBefore + 1);
        assertThat(metrics().histogram("events.batch-size").getSnapshot().getMax()).isEqualTo(MAX_PARKED);
        Await.until(() -> metrics().timer("events.event-to-last-write").getCount() == timedBefore + 1,
                Duration.ofSeconds(10), "batch timed");
        // The dispatcher's part of the batch is timed once per batch too.
        assertThat(metrics().timer("events.event-to-queued").getCount()).isEqualTo(queuedBefore + 1);
    }

    @Test
    void aBatchRacingThePollsTimeoutsAnswersEachWithTheEventOr204() throws Exception {
        awaitEarlierRequestsCompleted();
        long cursor = lastId();
        long timedBefore = metrics().timer("events.event-to-last-write").getCount();
        long atOnceBefore = metrics().meter("events.answered-at-once").getCount();
        long batchesBefore = metrics().histogram("events.batch-size").getCount();
        int count = 1000;
        long sent = System.nanoTime();
        List<CompletableFuture<Answer>> polls = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            polls.add(HTTP.getAsync(app("/events?after=" + cursor + "&timeout=2")));
        }
        // Publish just before the first timeouts fire, so that writes of the batch and timeouts overlap.
        Await.until(() -> parked() == count || System.nanoTime() - sent > TimeUnit.MILLISECONDS.toNanos(1900),
                Duration.ofSeconds(30), "parked or about to time out");
        publish("{\"race\":true}");
        int withEvent = 0;
        for (CompletableFuture<Answer> poll : polls) {
            Answer response = poll.get(30, TimeUnit.SECONDS);
            assertThat(response.status()).as("the event or a timeout, never an error").isIn(200, 204);
            if (response.status() == 200) {
                assertThat(ids(response.json())).containsExactly(cursor + 1);
                withEvent++;
            }
        }
        Await.until(() -> parked() == 0, Duration.ofSeconds(10), "no poll left parked");
        // Polls that came in after the event were answered at once, outside the batch; if the batch itself answered
        // any poll (on a slow machine its writes may all lose to the timeouts), it was timed to its last one.
        long byBatch = withEvent - (metrics().meter("events.answered-at-once").getCount() - atOnceBefore);
        if (byBatch > 0) {
            // Seen as (timed, batches since the test began, parked) if it fails: a missing completion, or a second batch.
            Await.until(() -> List.of(metrics().timer("events.event-to-last-write").getCount(),
                            metrics().histogram("events.batch-size").getCount() - batchesBefore, (long) parked()),
                    seen -> seen.get(0) == timedBefore + 1, Duration.ofSeconds(10),
                    "the batch was accounted for to its last poll (" + byBatch + " answered by it, timed before: " + timedBefore + ")");
        }
    }

    @Test
    void eventsPublishedBetweenPollsArriveExactlyOnceInOrder() throws Exception {
        long start = lastId();
        Answer first = HTTP.get(app("/events?after=" + start + "&timeout=5"));
        assertThat(first.status()).as("nothing new yet: times out").isEqualTo(204);

        publish("{\"n\":1}");
        JsonNode one = HTTP.get(app("/events?after=" + start + "&timeout=5")).json();
        assertThat(ids(one)).containsExactly(start + 1);
        // Between polls: two events the client is not waiting for.
        publish("{\"n\":2}");
        publish("{\"n\":3}");
        JsonNode twoThree = HTTP.get(app("/events?after=" + one.get("lastId").asLong() + "&timeout=5")).json();
        assertThat(ids(twoThree)).containsExactly(start + 2, start + 3);
        assertThat(twoThree.get("events").get(1).get("data").get("n").asInt()).isEqualTo(3);

        CompletableFuture<Answer> waiting = HTTP.getAsync(app("/events?after=" + twoThree.get("lastId").asLong() + "&timeout=30"));
        Await.until(() -> parked() == 1, Duration.ofSeconds(10), "poll parked");
        publish("{\"n\":4}");
        assertThat(ids(waiting.get(10, TimeUnit.SECONDS).json())).containsExactly(start + 4);
    }

    @Test
    void concurrentPollersFollowingTheirCursorSeeEveryEventOnce() throws Exception {
        long start = lastId();
        int events = 40;
        ExecutorService pollerThreads = Executors.newFixedThreadPool(3);
        try {
            List<Future<List<Long>>> pollers = new ArrayList<>();
            for (int p = 0; p < 3; p++) {
                pollers.add(pollerThreads.submit(() -> followCursor(start, events)));
            }
            for (int i = 1; i <= events; i++) {
                publish("{\"i\":" + i + "}");
                Thread.sleep(i % 4 == 0 ? 20 : 0);
            }
            List<Long> expected = new ArrayList<>();
            for (long id = start + 1; id <= start + events; id++) {
                expected.add(id);
            }
            for (Future<List<Long>> poller : pollers) {
                assertThat(poller.get(60, TimeUnit.SECONDS)).containsExactlyElementsOf(expected);
            }
        } finally {
            pollerThreads.shutdownNow();
        }
    }

    private List<Long> followCursor(long start, int events) {
        List<Long> seen = new ArrayList<>();
        long cursor = start;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (seen.size() < events && System.nanoTime() < deadline) {
            Answer response = HTTP.get(app("/events?after=" + cursor + "&timeout=5"));
            if (response.status() == 204) {
                continue;
            }
            JsonNode body = response.json();
            assertThat(body.get("missed").asBoolean()).isFalse();
            seen.addAll(ids(body));
            cursor = body.get("lastId").asLong();
        }
        return seen;
    }

    @Test
    void aCursorThatFellOutOfTheHistoryIsAnsweredAtOnceWithMissed() {
        long start = lastId();
        for (int i = 0; i < HISTORY + 6; i++) {
            publish("{\"i\":" + i + "}");
        }
        long last = start + HISTORY + 6;
        JsonNode body = HTTP.get(app("/events?after=" + start + "&timeout=5")).json();
        assertThat(body.get("missed").asBoolean()).isTrue();
        assertThat(body.get("events")).hasSize(HISTORY);
        assertThat(body.get("events").get(0).get("id").asLong()).isEqualTo(last - HISTORY + 1);
        assertThat(body.get("lastId").asLong()).isEqualTo(last);

        JsonNode future = HTTP.get(app("/events?after=" + (last + 1000) + "&timeout=5")).json();
        assertThat(future.get("missed").asBoolean()).as("a cursor this server never issued, e.g. from before a restart").isTrue();
        assertThat(future.get("lastId").asLong()).isEqualTo(last);
    }

    @Test
    void aPollWithoutCursorWaitsForTheNextEventEvenIfHistoryHasEvents() throws Exception {
        publish("{\"old\":true}");
        long before = lastId();
        CompletableFuture<Answer> waiting = HTTP.getAsync(app("/events?timeout=30"));
        Await.until(() -> parked() == 1, Duration.ofSeconds(10), "poll parked");
        publish("{\"new\":true}");
        JsonNode body = waiting.get(10, TimeUnit.SECONDS).json();
        assertThat(ids(body)).containsExactly(before + 1);
    }

    @Test
    void aPollThatTimesOutGets204AndLeavesTheGauge() {
        long timeoutsBefore = metrics().meter("events.timeouts").getCount();
        long start = System.nanoTime();
        Answer response = HTTP.get(app("/events?timeout=1"));
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(response.status()).isEqualTo(204);
        assertThat(response.body()).isEmpty();
        assertThat(elapsedMs).isBetween(900L, 10_000L);
        assertThat(metrics().meter("events.timeouts").getCount()).isEqualTo(timeoutsBefore + 1);
        Await.until(() -> parked() == 0, Duration.ofSeconds(10), "no poll left parked");
    }

    @Test
    void badParametersGetJson400OnBothEndpoints() {
        for (String path : List.of("/events", "/events/blocking")) {
            for (String query : List.of("?after=abc", "?after=-1", "?after=1.5", "?timeout=0", "?timeout=61", "?timeout=x", "?timeout=-5")) {
                Answer response = HTTP.get(app(path + query));
                assertThat(response.status()).as(path + query).isEqualTo(400);
                assertThat(response.header("Content-Type")).startsWith("application/json");
                JsonNode body = response.json();
                assertThat(body.get("code").asInt()).isEqualTo(400);
                assertThat(body.get("message").asText()).containsAnyOf("after", "timeout");
            }
        }
        Answer put = HTTP.send(LoopbackHttp.request(app("/events")).PUT(HttpRequest.BodyPublishers.ofString("{}")).build());
        assertThat(put.status()).isEqualTo(405);
        assertThat(put.header("Allow")).isEqualTo("GET, POST");
        assertThat(put.json().get("code").asInt()).isEqualTo(405);
        Await.until(() -> parked() == 0, Duration.ofSeconds(10), "no poll left parked");
    }

    @Test
    void publishingNeedsTheTokenJsonAndASmallBody() {
        Answer noToken = post("{\"a\":1}", null);
        assertThat(noToken.status()).isEqualTo(401);
        assertThat(noToken.header("WWW-Authenticate")).startsWith("Bearer");
        assertThat(noToken.json().get("code").asInt()).isEqualTo(401);
        assertThat(post("{\"a\":1}", "wrong").status()).isEqualTo(401);
        assertThat(post("{\"a\":1}", TOKEN + "x").status()).isEqualTo(401);

        long before = lastId();
        Answer ok = post("{\"a\":[1,2,3]}", TOKEN);
        assertThat(ok.status()).isEqualTo(200);
        JsonNode event = ok.json();
        assertThat(event.get("id").asLong()).isEqualTo(before + 1);
        assertThat(Instant.parse(event.get("time").asText())).isBetween(Instant.now().minusSeconds(60), Instant.now().plusSeconds(1));
        assertThat(event.get("data").get("a")).hasSize(3);

        String exactly4KiB = "\"" + "x".repeat(4096 - 2) + "\"";
        assertThat(post(exactly4KiB, TOKEN).status()).isEqualTo(200);
        Answer tooLarge = post("\"" + "x".repeat(4096 - 1) + "\"", TOKEN);
        assertThat(tooLarge.status()).isEqualTo(413);
        assertThat(tooLarge.json().get("code").asInt()).isEqualTo(413);
        byte[] chunked = ("\"" + "y".repeat(6000) + "\"").getBytes(StandardCharsets.UTF_8);
        Answer tooLargeChunked = HTTP.send(LoopbackHttp.request(app("/events"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(chunked))).build());
        assertThat(tooLargeChunked.status()).as("no Content-Length: counted while reading").isEqualTo(413);

        assertThat(post("{\"a\":", TOKEN).status()).isEqualTo(400);
        assertThat(post("{} {}", TOKEN).status()).isEqualTo(400);
        assertThat(post("", TOKEN).status()).isEqualTo(400);
        Answer plain = HTTP.send(LoopbackHttp.request(app("/events")).header("Content-Type", "text/plain")
                .header("Authorization", "Bearer " + TOKEN).POST(HttpRequest.BodyPublishers.ofString("{}")).build());
        assertThat(plain.status()).isEqualTo(415);
        assertThat(lastId()).as("only the two accepted bodies were published").isEqualTo(before + 2);
    }

    @Test
    void theBlockingVariantHoldsAJettyWorkerPerWaitingClient() throws Exception {
        long cursor = lastId();
        List<CompletableFuture<Answer>> waiting = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            waiting.add(HTTP.getAsync(app("/events/blocking?after=" + cursor + "&timeout=30")));
        }
        Await.until(() -> blockingWaiting() == 5, Duration.ofSeconds(10), "5 blocking waiters");
        // Counted by what the threads do, not by the pool's busy count, which a thread of an earlier test that is
        // still finishing can inflate at the start.
        assertThat(jettyWorkersIn("BlockingWaits.await")).as("Jetty workers waiting in BlockingWaits").isEqualTo(5);
        Await.until(() -> parked() == 0, Duration.ofSeconds(10), "no poll left parked");

        publish("{\"blocking\":true}");
        for (CompletableFuture<Answer> response : waiting) {
            Answer answer = response.get(10, TimeUnit.SECONDS);
            assertThat(answer.status()).isEqualTo(200);
            assertThat(ids(answer.json())).containsExactly(cursor + 1);
        }
        assertThat(HTTP.get(app("/events/blocking?timeout=1")).status()).isEqualTo(204);
        JsonNode atOnce = HTTP.get(app("/events/blocking?after=" + cursor + "&timeout=5")).json();
        assertThat(ids(atOnce)).containsExactly(cursor + 1);
        assertThat(blockingWaiting()).isZero();
    }

    @Test
    void aClientThatDisconnectsLeavesTheGaugeByItsTimeout() throws Exception {
        long timeoutsBefore = metrics().meter("events.timeouts").getCount();
        try (RawHttpConnection connection = RawHttpConnection.open(APP.getLocalPort())) {
            connection.send(RawHttpConnection.requestHead("GET", "/events?timeout=2"));
            Await.until(() -> parked() == 1, Duration.ofSeconds(10), "raw poll parked");
        }
        // HTTP/1.1: Jetty does not read while the request is parked, so the close is seen at the latest at the timeout.
        Await.until(() -> parked() == 0, Duration.ofSeconds(10), "gauge back to 0");
        Await.until(() -> metrics().meter("events.timeouts").getCount() == timeoutsBefore + 1, Duration.ofSeconds(5), "counted");
    }

    @Test
    void metricsAreOnTheAdminPortAndInPrometheus() {
        AdminMetrics admin = new AdminMetrics(HTTP, APP.getAdminPort());
        String json = admin.metrics().toString();
        for (String name : List.of("events.parked", "events.published", "events.batch-size", "events.event-to-last-write",
                "events.event-to-queued", "events.timeouts", "events.rejected", "events.disconnects", "events.blocking.waiting")) {
            assertThat(json).contains("\"" + name + "\"");
        }
        String prometheus = admin.prometheusText();
        for (String name : List.of("events_parked ", "events_published_total", "events_batch_size", "events_event_to_last_write",
                "events_event_to_queued", "events_timeouts_total", "events_rejected_total", "events_disconnects_total")) {
            assertThat(prometheus).contains(name);
        }
    }

    private static void publish(String json) {
        assertThat(post(json, TOKEN).status()).isEqualTo(200);
    }

    /** {@code POST /events} with {@code json}, and {@code Authorization: Bearer <token>} unless {@code token} is null. */
    private static Answer post(String json, String token) {
        HttpRequest.Builder request = LoopbackHttp.request(app("/events"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build());
    }

    private static String app(String pathAndQuery) {
        return LoopbackHttp.url(APP.getLocalPort(), pathAndQuery);
    }

    private static List<Long> ids(JsonNode body) {
        List<Long> ids = new ArrayList<>();
        body.get("events").forEach(event -> ids.add(event.get("id").asLong()));
        return ids;
    }

    /**
     * Waits until Jetty holds no request of an earlier test. A batch is timed ({@code events.event-to-last-write}) when
     * its last poll completes, which can come just after the client has read that poll's answer: a count read before
     * then would take an earlier test's batch for this one's; the batch is timed in {@code AsyncListener.onComplete},
     * which Jetty runs before it stops counting the request ({@link JettyInFlight}).
     */
    private static void awaitEarlierRequestsCompleted() {
        Await.until(() -> JettyInFlight.count(APP.getEnvironment()) == 0, Duration.ofSeconds(30),
                "no request of an earlier test in flight");
    }

    private static MetricRegistry metrics() {
        return APP.getEnvironment().metrics();
    }

    private static long lastId() {
        return ((Number) gauge("events.last-id").getValue()).longValue();
    }

    private static int parked() {
        return ((Number) gauge("events.parked").getValue()).intValue();
    }

    private static int blockingWaiting() {
        return ((Number) gauge("events.blocking.waiting").getValue()).intValue();
    }

    private static Gauge<?> gauge(String name) {
        return metrics().getGauges().get(name);
    }

    /** Threads of Jetty's application pool ("dw-...") whose stack is inside {@code method} ("Class.method") right now. */
    private static long jettyWorkersIn(String method) {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(thread -> thread.getKey().getName().startsWith("dw-") && !thread.getKey().getName().startsWith("dw-admin"))
                .filter(thread -> Arrays.stream(thread.getValue())
                        .anyMatch(frame -> (frame.getClassName().substring(frame.getClassName().lastIndexOf('.') + 1)
                                + "." + frame.getMethodName()).equals(method)))
                .count();
    }
}
