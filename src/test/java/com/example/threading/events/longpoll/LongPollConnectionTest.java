package com.example.threading.events.longpoll;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Gauge;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * How parked polls meet the connection: over HTTP/2 (h2c) a client that resets its stream is seen at once and
 * its slot is freed; the connector's idle timeout (2 s here) does not cut a poll parked for longer, over
 * HTTP/1.1 or HTTP/2.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class LongPollConnectionTest {

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].type", "h2c"),
            ConfigOverride.config("server.applicationConnectors[0].idleTimeout", "2s"),
            ConfigOverride.config("events.tickPeriod", "0s"));

    @Test
    void aResetStreamLeavesTheGaugeLongBeforeItsTimeout() {
        try (LoopbackHttp http2 = new LoopbackHttp(HttpClient.Version.HTTP_2)) {
            // The first request upgrades the connection to h2c; the poll then runs as a stream on it.
            LoopbackHttp.Answer upgrade = http2.get(app("/events?after=999999&timeout=5"));
            assertThat(upgrade.version()).isEqualTo(HttpClient.Version.HTTP_2);

            long disconnectsBefore = disconnects();
            // The JDK client's own future: cancelling it aborts the exchange.
            CompletableFuture<HttpResponse<String>> poll = http2.client().sendAsync(
                    LoopbackHttp.request(app("/events?timeout=60")).build(), HttpResponse.BodyHandlers.ofString());
            Await.until(() -> parked() == 1, Duration.ofSeconds(10), "poll parked");

            long start = System.nanoTime();
            poll.cancel(true); // the JDK client resets the stream (RST_STREAM)
            // The hub frees the slot, then counts the disconnect: a reader of both waits for both.
            Await.until(() -> parked() == 0 && disconnects() > disconnectsBefore, Duration.ofSeconds(10),
                    "slot freed by the reset, and the disconnect counted");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            assertThat(disconnects()).isEqualTo(disconnectsBefore + 1);
        }
    }

    @Test
    void aPollParkedLongerThanTheIdleTimeoutStillGets204AtItsTimeout() {
        for (HttpClient.Version version : List.of(HttpClient.Version.HTTP_1_1, HttpClient.Version.HTTP_2)) {
            try (LoopbackHttp client = new LoopbackHttp(version)) {
                long start = System.nanoTime();
                LoopbackHttp.Answer response = client.get(app("/events?timeout=4"));
                assertThat(response.status()).as(version.toString()).isEqualTo(204);
                assertThat(Duration.ofNanos(System.nanoTime() - start)).as(version.toString()).isGreaterThan(Duration.ofMillis(3900));
            }
        }
    }

    private static String app(String pathAndQuery) {
        return LoopbackHttp.url(APP.getLocalPort(), pathAndQuery);
    }

    private static long disconnects() {
        return APP.getEnvironment().metrics().meter("events.disconnects").getCount();
    }

    private static int parked() {
        Gauge<?> gauge = APP.getEnvironment().metrics().getGauges().get("events.parked");
        return ((Number) gauge.getValue()).intValue();
    }
}
