package com.example.threading.longpoll;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Gauge;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Stopping the server answers every parked and blocked poll with a full 503 instead of holding or resetting it. */
class LongPollShutdownTest {

    private final DropwizardTestSupport<ThreadingConfiguration> support = new DropwizardTestSupport<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("events.tickPeriod", "0s"),
            ConfigOverride.config("server.shutdownGracePeriod", "30s"));

    @AfterEach
    void stopIfStillRunning() {
        support.after(); // idempotent: a no-op when the test already stopped the server
    }

    @Test
    void stoppingAnswersEveryParkedAndBlockedPollWith503() throws Exception {
        support.before();
        HttpTestClient http = new HttpTestClient(support.getLocalPort());
        List<CompletableFuture<HttpResponse<String>>> polls = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            polls.add(http.getAsync("/events?timeout=60"));
        }
        for (int i = 0; i < 5; i++) {
            polls.add(http.getAsync("/events/blocking?timeout=60"));
        }
        LongPollEndpointTest.waitUntil(() -> gauge("events.parked") == 100 && gauge("events.blocking.waiting") == 5,
                Duration.ofSeconds(30), "100 parked and 5 blocked");

        long start = System.nanoTime();
        support.after();
        long stopMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        for (CompletableFuture<HttpResponse<String>> poll : polls) {
            // A reset connection would complete the future exceptionally; a full response completes it normally.
            HttpResponse<String> response = poll.get(10, TimeUnit.SECONDS);
            assertThat(response.statusCode()).isEqualTo(503);
            assertThat(response.headers().firstValue("Retry-After")).contains("0");
            assertThat(HttpTestClient.json(response).get("code").asInt()).isEqualTo(503);
        }
        // Far below both the 60 s poll timeout and the 30 s grace period the parked polls would otherwise hold.
        assertThat(stopMs).isLessThan(15_000);
    }

    private int gauge(String name) {
        Gauge<?> gauge = support.getEnvironment().metrics().getGauges().get(name);
        return ((Number) gauge.getValue()).intValue();
    }
}
