package com.example.threading.work;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
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
                    .map(p -> http.send("http://127.0.0.1:" + server.getLocalPort() + "/work/" + p + "?ms=2000"))
                    .toList();
            Thread.sleep(500);

            long stopStart = System.nanoTime();
            server.after();
            long stopMs = (System.nanoTime() - stopStart) / 1_000_000;

            for (int i = 0; i < patterns.size(); i++) {
                LoopbackHttp.Answer answer = inFlight.get(i).join();
                assertThat(answer.status()).as(patterns.get(i)).isEqualTo(200);
                assertThat(answer.json().path("waitedMs").asLong()).as(patterns.get(i)).isGreaterThanOrEqualTo(2000);
            }
            // The stop waited for the in-flight work (about 1.5 s left), not for the 10 s grace period.
            assertThat(stopMs).isBetween(1_000L, 9_000L);
        }
    }
}
