package com.example.threading.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Gauge;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Stopping the server answers every parked and blocked poll with a full 503 instead of holding or resetting it. */
class EventsShutdownTest {

    private final DropwizardTestSupport<ThreadingConfiguration> support = new DropwizardTestSupport<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("events.tickPeriod", "0s"),
            ConfigOverride.config("server.shutdownGracePeriod", "30s"));

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterEach
    void stopIfStillRunning() {
        support.after(); // idempotent: a no-op when the test already stopped the server
    }

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void stoppingAnswersEveryParkedAndBlockedPollWith503() throws Exception {
        support.before();
        List<CompletableFuture<Answer>> polls = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            polls.add(HTTP.getAsync(LoopbackHttp.url(support.getLocalPort(), "/events?timeout=60")));
        }
        for (int i = 0; i < 5; i++) {
            polls.add(HTTP.getAsync(LoopbackHttp.url(support.getLocalPort(), "/events/blocking?timeout=60")));
        }
        Await.until(() -> gauge("events.parked") == 100 && gauge("events.blocking.waiting") == 5,
                Duration.ofSeconds(30), "100 parked and 5 blocked");

        long start = System.nanoTime();
        support.after();
        long stopMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        Set<String> parkedRetryAfter = new TreeSet<>();
        for (int i = 0; i < polls.size(); i++) {
            // A reset connection would complete the future exceptionally; a full response completes it normally.
            Answer response = polls.get(i).get(10, TimeUnit.SECONDS);
            assertThat(response.status()).isEqualTo(503);
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(response.header("Retry-After")).as("the default spread, 3 s").isIn("0", "1", "2", "3");
            assertThat(response.json().get("code").asInt()).isEqualTo(503);
            if (i < 100) {
                parkedRetryAfter.add(response.header("Retry-After"));
            }
        }
        assertThat(parkedRetryAfter).as("the parked polls' Retry-After rises over the spread").containsExactly("0", "1", "2", "3");
        assertThat(meter("events.shutdown-answers")).isEqualTo(100);
        assertThat(meter("events.shutdown.turned-away")).as("the blocked polls").isEqualTo(5);
        assertThat(meter("events.shutdown.unfinished")).isZero();
        // Far below both the 60 s poll timeout and the 30 s grace period the parked polls would otherwise hold.
        assertThat(stopMs).isLessThan(15_000);
    }

    private long meter(String name) {
        return support.getEnvironment().metrics().getMeters().get(name).getCount();
    }

    private int gauge(String name) {
        Gauge<?> gauge = support.getEnvironment().metrics().getGauges().get(name);
        return ((Number) gauge.getValue()).intValue();
    }
}
