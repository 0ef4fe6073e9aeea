package com.example.threading.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code via=structured} against a downstream that never answers, with a client timeout of a minute and a fan-out
 * timeout of half a second (JDK 25 with preview features): the answer comes at the fan-out timeout with every call
 * unfinished, and the scope's deadline cancels the calls blocked on their sockets, so the fan-out's places are free
 * long before the client timeout would have ended them. Below JDK 25 it checks nothing more than the 501.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class StructuredFanoutDeadlineTest {

    private static final long FANOUT_TIMEOUT_MS = 500;
    private static final long CLIENT_TIMEOUT_MS = 60_000;

    private static final SilentDownstream DOWNSTREAM = new SilentDownstream();

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml", ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("events.tickPeriod", "0s"),
            ConfigOverride.config("client.downstreamUrl", () -> "http://127.0.0.1:" + DOWNSTREAM.port() + "/silent"),
            ConfigOverride.config("client.timeout", CLIENT_TIMEOUT_MS + "ms"),
            ConfigOverride.config("client.fanoutTimeout", FANOUT_TIMEOUT_MS + "ms"),
            ConfigOverride.config("server.shutdownGracePeriod", "5s"));

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void close() {
        DOWNSTREAM.close();
        HTTP.close();
    }

    @Test
    void theDeadlineAnswersAndCancelsTheBlockedCalls() {
        LoopbackHttp.Answer response = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/fanout?n=4&ms=10&via=structured"));
        if (!StructuredFanoutTest.structuredRuns()) {
            assertThat(response.status()).isEqualTo(501);
            return;
        }

        assertThat(response.status()).as(response.body()).isEqualTo(200);
        JsonNode answer = response.json();
        assertThat(answer.get("errorsByKind").get(FanoutRun.UNFINISHED).asInt()).as(answer.toString()).isEqualTo(4);
        assertThat(answer.get("elapsedMs").asLong()).as(answer.toString()).isLessThan(CLIENT_TIMEOUT_MS);
        Await.until(() -> DOWNSTREAM.accepted() >= 1, Duration.ofSeconds(10), "the calls reached the downstream");
        // Without the cancellation the four calls would hold their places until the one-minute client timeout.
        Await.until(() -> StructuredFanoutTest.inFlight(APP) == 0, Duration.ofSeconds(20),
                "the scope closed, its calls cancelled, its places given back");
    }
}
