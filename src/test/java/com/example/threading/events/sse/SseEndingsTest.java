package com.example.threading.events.sse;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Gauge;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.events.sse.SseReader.SseEvent;
import com.example.threading.testing.Await;
import com.example.threading.testing.JettyInFlight;
import com.example.threading.testing.LoopbackHttp;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How event streams end on the real server: the stop answers them the spread way (event: closing, a rising retry:),
 * and a stream past its lifetime is ended with event: reconnect, after which a client resumes with its Last-Event-ID.
 */
class SseEndingsTest {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private DropwizardTestSupport<ThreadingConfiguration> support;

    @AfterEach
    void stop() {
        if (support != null) {
            support.after();
        }
    }

    @Test
    void stoppingEndsEveryStreamWithClosingAndARetryFromTheSpread() throws Exception {
        // Heartbeats above the spread: a heartbeat during the stop would end its stream at once (turned away), not in turn.
        start("20s", "10m");
        List<SseReader> streams = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            streams.add(SseReader.open(client, url("/events/stream?topic=stop")));
        }
        Await.until(() -> gauge("events.parked") == 8, BOUND, "8 streams parked");
        support.after();

        Set<Long> retries = new TreeSet<>();
        for (SseReader stream : streams) {
            SseEvent closing = stream.next(BOUND);
            assertThat(closing.type()).isEqualTo("closing");
            assertThat(closing.id()).as("no id: the client keeps its position").isNull();
            retries.add(Long.parseLong(stream.retry()));
            assertThat(stream.next(BOUND).type()).as("then the stream ends").isEqualTo("end-of-stream");
        }
        // The spread's Retry-After (0..3 s over the default 3 s) plus each stream's jitter (below the 3 s base retry).
        assertThat(retries).allSatisfy(retry -> assertThat(retry).isBetween(0L, 6_000L));
        assertThat(retries.size()).as("spread, not one value").isGreaterThan(1);
        assertThat(meter("events.sse.shutdown-ends")).isEqualTo(8);
        assertThat(meter("events.shutdown-answers")).as("answered by the stop's spread; otherwise %d, turned away %d, timeouts %d",
                meter("events.shutdown.answered-otherwise"), meter("events.shutdown.turned-away"), meter("events.timeouts"))
                .isEqualTo(8);
        assertThat(meter("events.shutdown.unfinished")).isZero();
    }

    @Test
    void aStreamPastItsLifetimeEndsWithReconnectAndResumesWhereItWas() throws Exception {
        start("500ms", "2s");
        String id;
        try (SseReader stream = SseReader.open(client, url("/events/stream?topic=life"))) {
            Await.until(() -> gauge("events.parked") == 1, BOUND, "parked");
            publish("life");
            id = stream.next(BOUND).id();
            assertThat(stream.next(BOUND).type()).isEqualTo("reconnect");
            assertThat(stream.next(BOUND).type()).isEqualTo("end-of-stream");
        }
        assertThat(meter("events.sse.lifetime-ends")).isEqualTo(1);
        publish("life");
        try (SseReader resumed = SseReader.open(client, url("/events/stream?topic=life"), "Last-Event-ID", id)) {
            assertThat(resumed.next(BOUND).id()).startsWith("life:2:");
        }
    }

    @Test
    void overH2cTheStreamIsAnHttp2Stream() throws Exception {
        start("500ms", "10m");
        HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        // The JDK client upgrades a plain-text connection (Upgrade: h2c) with its first request: a stream on it is
        // answered over HTTP/1.1 or HTTP/2; the second stream shares the upgraded connection.
        try (SseReader first = SseReader.open(h2, url("/events/stream?topic=h2"));
             SseReader second = SseReader.open(h2, url("/events/stream?topic=h2"))) {
            assertThat(second.response().version()).isEqualTo(HttpClient.Version.HTTP_2);
            Await.until(() -> gauge("events.parked") == 2, BOUND, "both parked");
            publish("h2");
            assertThat(first.next(BOUND).id()).startsWith("h2:1:");
            assertThat(second.next(BOUND).id()).startsWith("h2:1:");
        }
    }

    @Test
    void aStreamEndingOnAStalledSocketIsShedAtTheDrainDeadlineNotHeldUntilTheIdleTimeout() throws Exception {
        // Only the drain deadline can shed here (a budget far above what is published); the lifetime ends the stream
        // while its socket is stalled, so its last event cannot be written.
        start("500ms", "5s", ConfigOverride.config("sse.maxUnsentBytes", "64MiB"),
                ConfigOverride.config("sse.drainTimeout", "6s"), ConfigOverride.config("events.maxEventSize", "64KiB"));
        try (java.net.Socket stalled = new java.net.Socket()) {
            stalled.setReceiveBufferSize(4096);
            stalled.connect(new java.net.InetSocketAddress("127.0.0.1", support.getLocalPort()));
            stalled.getOutputStream().write("GET /events/stream?topic=stall HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            Await.until(() -> gauge("events.parked") == 1, BOUND, "parked");
            String body = "{\"pad\":\"" + "x".repeat(60_000) + "\"}";
            try (LoopbackHttp http = new LoopbackHttp()) {
                for (int i = 0; i < 150 && meter("events.sse.lifetime-ends") == 0; i++) {
                    assertThat(http.postJson(url("/events?topic=stall"), body).status()).isEqualTo(200);
                }
            }
            Await.until(() -> meter("events.sse.lifetime-ends") == 1, BOUND, "the lifetime ends the stream");
            assertThat(gauge("events.sse.unsent-bytes")).as("the socket is stalled").isPositive();
            // the connector's idle timeout (75 s) would end it otherwise; the drain deadline (6 s) sheds it well before.
            Await.until(() -> meter("events.sse.shed") == 1 && gauge("events.sse.open") == 0
                    && JettyInFlight.count(support.getEnvironment()) == 0, Duration.ofSeconds(25), "shed, nothing in flight");
        }
    }

    private void start(String heartbeat, String maxLifetime, ConfigOverride... more) throws Exception {
        List<ConfigOverride> overrides = new ArrayList<>(List.of(ConfigOverride.randomPorts(),
                ConfigOverride.config("events.tickPeriod", "0s"), ConfigOverride.config("sse.heartbeat", heartbeat),
                ConfigOverride.config("sse.maxLifetime", maxLifetime)));
        overrides.addAll(List.of(more)); // keys not given above
        support = new DropwizardTestSupport<>(ThreadingApplication.class, "config.yml", overrides.toArray(ConfigOverride[]::new));
        support.before();
    }

    private void publish(String topic) {
        try (LoopbackHttp http = new LoopbackHttp()) {
            assertThat(http.postJson(url("/events?topic=" + topic), "{}").status()).isEqualTo(200);
        }
    }

    private String url(String pathAndQuery) {
        return LoopbackHttp.url(support.getLocalPort(), pathAndQuery);
    }

    private long meter(String name) {
        return support.getEnvironment().metrics().getMeters().get(name).getCount();
    }

    private long gauge(String name) {
        Gauge<?> gauge = support.getEnvironment().metrics().getGauges().get(name);
        return ((Number) gauge.getValue()).longValue();
    }
}
