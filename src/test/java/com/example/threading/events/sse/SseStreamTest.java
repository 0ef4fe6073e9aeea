package com.example.threading.events.sse;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Gauge;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.events.sse.SseReader.SseEvent;
import com.example.threading.testing.AdminMetrics;
import com.example.threading.testing.Await;
import com.example.threading.testing.JettyInFlight;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code GET /events/stream} on the real server, real ports and real streams: ids that resume without loss or
 * duplicate, epochs, heartbeats, refusals before the stream starts, and a stalled reader shed without holding others.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class SseStreamTest {

    private static final int MAX_STREAMS = 4;
    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("events.tickPeriod", "0s"),
            ConfigOverride.config("events.maxEventSize", "64KiB"),
            ConfigOverride.config("sse.maxStreams", Integer.toString(MAX_STREAMS)),
            ConfigOverride.config("sse.heartbeat", "500ms"),
            ConfigOverride.config("sse.drainTimeout", "2s"));
    private static final LoopbackHttp HTTP = new LoopbackHttp();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration BOUND = Duration.ofSeconds(20);

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @BeforeEach
    void noStreamLeftByAnotherTest() {
        // A closed stream is noticed at its next write: the heartbeat, every 500 ms.
        Await.until(() -> gauge("events.sse.open") == 0, BOUND, "no stream open");
    }

    @Test
    void eventsCarryTheirPositionAndAReconnectResumesWithoutLossOrDuplicate() throws Exception {
        String epoch;
        long followsBefore = meter("events.follows");
        try (SseReader stream = open("/events/stream?topic=resume")) {
            assertThat(stream.response().statusCode()).isEqualTo(200);
            assertThat(stream.response().headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("text/event-stream"));
            assertThat(stream.response().headers().firstValue("Cache-Control")).hasValue("no-store");
            assertThat(stream.response().headers().firstValue("X-Accel-Buffering")).hasValue("no");
            awaitParked(1);
            for (int i = 1; i <= 3; i++) {
                publish("resume", "{\"n\":" + i + "}");
            }
            List<SseEvent> first = new ArrayList<>();
            for (int i = 1; i <= 3; i++) {
                first.add(stream.next(BOUND));
            }
            epoch = first.get(0).id().split(":")[2];
            for (int i = 1; i <= 3; i++) {
                SseEvent event = first.get(i - 1);
                assertThat(event.type()).isEqualTo("message");
                assertThat(event.id()).isEqualTo("resume:" + i + ":" + epoch);
                JsonNode data = JSON.readTree(event.data());
                assertThat(data.get("id").asLong()).isEqualTo(i);
                assertThat(data.get("data").get("n").asInt()).isEqualTo(i);
            }
            assertThat(Integer.parseInt(stream.retry())).as("base 3 s plus a jitter below it").isBetween(3000, 5999);
            assertThat(meter("events.follows") - followsBefore).as("one standing poll across three events").isEqualTo(1);
        }
        publish("resume", "{\"n\":4}"); // published while the client is away
        publish("resume", "{\"n\":5}");
        try (SseReader resumed = open("/events/stream?topic=resume", "Last-Event-ID", "resume:3:" + epoch)) {
            assertThat(resumed.next(BOUND).id()).isEqualTo("resume:4:" + epoch);
            assertThat(resumed.next(BOUND).id()).isEqualTo("resume:5:" + epoch);
            publish("resume", "{\"n\":6}");
            assertThat(resumed.next(BOUND).id()).as("no duplicate, nothing skipped").isEqualTo("resume:6:" + epoch);
        }
    }

    @Test
    void severalTopicsShareOneIdThatResumesEachTopic() throws Exception {
        String id;
        try (SseReader stream = open("/events/stream?topic=multi-a&topic=multi-b")) {
            awaitParked(1);
            publish("multi-a", "{\"a\":1}");
            SseEvent a = stream.next(BOUND);
            assertThat(a.id()).matches("multi-a:1:[A-Za-z0-9-]+,multi-b:0");
            publish("multi-b", "{\"b\":1}");
            id = stream.next(BOUND).id();
            assertThat(id).matches("multi-a:1:[A-Za-z0-9-]+,multi-b:1:[A-Za-z0-9-]+");
        }
        publish("multi-a", "{\"a\":2}");
        publish("multi-b", "{\"b\":2}");
        try (SseReader resumed = open("/events/stream?topic=multi-a&topic=multi-b", "Last-Event-ID", id)) {
            List<String> topicsAndIds = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                JsonNode data = JSON.readTree(resumed.next(BOUND).data());
                topicsAndIds.add(data.get("topic").asText() + "#" + data.get("id").asLong());
            }
            assertThat(topicsAndIds).containsExactly("multi-a#2", "multi-b#2");
        }
    }

    @Test
    void aCursorOfAnotherHistoryIsToldWithAnEventOfItsOwn() throws Exception {
        publish("epochs", "{\"n\":1}");
        try (SseReader stream = open("/events/stream?topic=epochs", "Last-Event-ID", "epochs:7:before-restart")) {
            SseEvent missed = stream.next(BOUND);
            assertThat(missed.type()).isEqualTo("missed");
            assertThat(missed.id()).as("continue from the current history's newest id").matches("epochs:1:[A-Za-z0-9-]+");
            assertThat(missed.id()).doesNotContain("before-restart");
            publish("epochs", "{\"n\":2}");
            SseEvent next = stream.next(BOUND);
            assertThat(next.type()).isEqualTo("message");
            assertThat(next.id()).startsWith("epochs:2:");
        }
    }

    @Test
    void anIdleStreamHearsHeartbeats() throws Exception {
        try (SseReader stream = open("/events/stream?topic=quiet")) {
            Await.until(() -> stream.comments() >= 2, BOUND, "two heartbeats");
        }
        assertThat(meter("events.sse.heartbeats")).isGreaterThanOrEqualTo(2);
    }

    @Test
    void aBadLastEventIdIsAJson400BeforeTheStreamStarts() {
        for (String bad : List.of("bad:x", "bad:-1", "other:3", "bad:1:not an epoch", "bad:1,,", ":1")) {
            Answer answer = HTTP.send(LoopbackHttp.request(url("/events/stream?topic=bad"))
                    .header("Last-Event-ID", bad).GET().build());
            assertThat(answer.status()).as(bad).isEqualTo(400);
            assertThat(answer.header("Content-Type")).as(bad).startsWith("application/json");
            assertThat(answer.json().get("code").asInt()).isEqualTo(400);
            assertThat(answer.json().get("message").asText()).as(bad).isNotBlank();
        }
        assertThat(gauge("events.sse.open")).isZero();
    }

    @Test
    void beyondMaxStreamsA503WithRetryAfter() throws Exception {
        List<SseReader> open = new ArrayList<>();
        try {
            for (int i = 0; i < MAX_STREAMS; i++) {
                open.add(open("/events/stream?topic=full"));
            }
            Answer refused = HTTP.get(url("/events/stream?topic=full"));
            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.header("Retry-After")).isEqualTo("1");
            assertThat(refused.json().get("code").asInt()).isEqualTo(503);
            assertThat(meter("events.sse.refused")).isGreaterThanOrEqualTo(1);
        } finally {
            open.forEach(SseReader::close);
        }
    }

    @Test
    void aStalledReaderIsShedAndLeavesNothingInFlightWhileAnotherStreamGoesOn() throws Exception {
        long shedBefore = meter("events.sse.shed");
        try (Socket stalled = new Socket(); SseReader reader = open("/events/stream?topic=slow")) {
            stalled.setReceiveBufferSize(4096);
            stalled.connect(new InetSocketAddress("127.0.0.1", APP.getLocalPort()));
            OutputStream request = stalled.getOutputStream();
            request.write(("GET /events/stream?topic=slow HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            request.flush();
            awaitParked(2);
            String body = "{\"pad\":\"" + "x".repeat(60_000) + "\"}";
            int published = 0;
            while (meter("events.sse.shed") == shedBefore) {
                assertThat(published).as("shed before 1,000 events of 60 KB").isLessThan(1_000);
                publish("slow", body);
                published++;
                assertThat(reader.next(BOUND).id()).startsWith("slow:" + published + ":");
            }
            assertThat(meter("events.sse.shed")).isEqualTo(shedBefore + 1);
            // The stalled stream is gone: only the reader's stream is open and in flight, and nothing is left unsent.
            Await.until(() -> gauge("events.sse.open") == 1 && JettyInFlight.count(APP.getEnvironment()) == 1,
                    BOUND, "the shed stream complete");
            publish("slow", "{\"after\":\"shed\"}");
            assertThat(reader.next(BOUND).id()).as("the other stream goes on").startsWith("slow:" + (published + 1) + ":");
            Await.until(() -> gauge("events.sse.unsent-bytes") == 0, BOUND, "nothing unsent");
            try (LoopbackHttp admin = new LoopbackHttp()) {
                java.util.OptionalDouble shed = new AdminMetrics(admin, APP.getAdminPort()).prometheus("events_sse_shed_total");
                assertThat(shed).as("on /prometheus").isPresent();
                assertThat(shed.getAsDouble()).isGreaterThanOrEqualTo(1);
            }
        }
        Await.until(() -> gauge("events.sse.open") == 0 && gauge("events.parked") == 0
                && JettyInFlight.count(APP.getEnvironment()) == 0, BOUND, "nothing in flight");
    }

    @Test
    void aStalledHttp2StreamIsShedWithoutTheOtherStreamsOfItsConnection() throws Exception {
        long shedBefore = meter("events.sse.shed");
        HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        try (SseReader upgraded = SseReader.open(h2, url("/events/stream?topic=h2-quiet"));
             SseReader reader = open("/events/stream?topic=h2-slow")) {
            // A second stream on the same HTTP/2 connection whose body is never read: its flow-control window fills.
            java.net.http.HttpResponse<java.io.InputStream> stalled = h2.sendAsync(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create(url("/events/stream?topic=h2-slow"))).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofInputStream()).get(20, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(stalled.version()).isEqualTo(HttpClient.Version.HTTP_2);
            awaitParked(3);
            String body = "{\"pad\":\"" + "x".repeat(60_000) + "\"}";
            int published = 0;
            while (meter("events.sse.shed") == shedBefore) {
                assertThat(published).as("shed before 1,000 events of 60 KB").isLessThan(1_000);
                publish("h2-slow", body);
                published++;
                assertThat(reader.next(BOUND).id()).startsWith("h2-slow:" + published + ":");
            }
            Await.until(() -> gauge("events.sse.open") == 2 && JettyInFlight.count(APP.getEnvironment()) == 2,
                    BOUND, "the shed HTTP/2 stream complete");
            publish("h2-quiet", "{}");
            assertThat(upgraded.next(BOUND).id()).as("the connection's other stream goes on").startsWith("h2-quiet:1:");
            stalled.body().close();
        }
        // Streams the client reset (the JDK client's close on HTTP/2) are given back too.
        Await.until(() -> gauge("events.sse.open") == 0 && JettyInFlight.count(APP.getEnvironment()) == 0,
                BOUND, "nothing open or in flight");
    }

    private SseReader open(String pathAndQuery, String... headers) throws Exception {
        return SseReader.open(client, url(pathAndQuery), headers);
    }

    private static void publish(String topic, String json) {
        Answer answer = HTTP.postJson(url("/events?topic=" + topic), json);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    }

    private static void awaitParked(int count) {
        Await.until(() -> gauge("events.parked") >= count, BOUND, count + " stream polls parked");
    }

    private static String url(String pathAndQuery) {
        return LoopbackHttp.url(APP.getLocalPort(), pathAndQuery);
    }

    private static long meter(String name) {
        return APP.getEnvironment().metrics().getMeters().get(name).getCount();
    }

    private static long gauge(String name) {
        Gauge<?> gauge = APP.getEnvironment().metrics().getGauges().get(name);
        return ((Number) gauge.getValue()).longValue();
    }
}
