package com.example.threading.work;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Counter;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Stopping the server answers the in-flight requests of every pattern instead of dropping them. */
class GracefulShutdownTest {

    @Test
    void inFlightRequestsOfEveryPatternAreAnsweredOnStop() throws Exception {
        DropwizardTestSupport<ThreadingConfiguration> server = new DropwizardTestSupport<>(
                ThreadingApplication.class, "config.yml",
                ConfigOverride.randomPorts(),
                ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
                ConfigOverride.config("server.shutdownGracePeriod", "10s"));
        server.before();
        List<String> patterns = new ArrayList<>(List.of("blocking", "thread-per-request", "cached", "bounded"));
        if (Runtime.version().feature() >= 21) {
            patterns.add("virtual");
        }
        try (LoopbackHttp http = new LoopbackHttp()) {
            List<CompletableFuture<LoopbackHttp.Answer>> inFlight = patterns.stream()
                    .map(p -> http.getAsync(LoopbackHttp.url(server.getLocalPort(), "/work/" + p + "?ms=2000")))
                    .toList();
            awaitInFlight(server, patterns.size());

            long stopStart = System.nanoTime();
            server.after();
            long stopMs = (System.nanoTime() - stopStart) / 1_000_000;

            for (int i = 0; i < patterns.size(); i++) {
                LoopbackHttp.Answer answer = inFlight.get(i).join();
                assertThat(answer.status()).as(patterns.get(i)).isEqualTo(200);
                assertThat(answer.json().path("waitedMs").asLong()).as(patterns.get(i)).isGreaterThanOrEqualTo(2000);
            }
            // The stop waited for the in-flight work (under 2 s left), not for the 10 s grace period.
            assertThat(stopMs).isLessThan(9_000L);
        }
    }

    /** Waits (at most 10 s) until the application handler counts {@code count} requests in flight. */
    private static void awaitInFlight(DropwizardTestSupport<ThreadingConfiguration> server, int count) {
        Counter active = server.getEnvironment().metrics().counter("io.dropwizard.jetty.MutableServletContextHandler.active-requests");
        Await.until(() -> active.getCount() >= count, Duration.ofSeconds(10), count + " requests in flight");
        assertThat(active.getCount()).as("requests in flight before the stop").isEqualTo(count);
    }
}
