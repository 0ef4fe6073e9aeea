package com.example.threading.minimal;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.core.Configuration;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.ResourceHelpers;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code MinimalStructuredFanout} (4 places, a deadline of one second, client timeout 5 s) in a bare Dropwizard
 * application, calling {@link MinimalFanoutTest.Downstream}: every call is a subtask on a virtual thread, a fan-out
 * that does not fit beside one in flight is 503, and the deadline cancels calls longer than it, after which the places
 * are free again. The listing is compiled for JDK 25 with preview features ({@code src/test/java25-preview}), so this
 * test runs on JDK 25 (the suite's JVM there enables them) and is skipped below it.
 */
class MinimalStructuredFanoutTest {

    private static final String APP_CLASS = "com.example.threading.minimal.MinimalStructuredFanoutApp";

    private static DropwizardTestSupport<Configuration> downstream;
    private static DropwizardTestSupport<Configuration> app;
    private static LoopbackHttp http;

    @BeforeAll
    static void start() throws Exception {
        PreviewApps.assumeJdk25("MinimalStructuredFanout");
        downstream = new DropwizardTestSupport<>(MinimalFanoutTest.Downstream.class, ResourceHelpers.resourceFilePath(LiftOut.CONFIG));
        downstream.before();
        app = PreviewApps.start(APP_CLASS, "minimal-structured.",
                ConfigOverride.config("minimal-structured.", "downstream", LoopbackHttp.url(downstream.getLocalPort(), "/wait")),
                ConfigOverride.config("minimal-structured.", "client.timeout", "5s"));
        http = new LoopbackHttp();
    }

    @AfterAll
    static void stop() {
        PreviewApps.stop(http, app, downstream);
    }

    @Test
    void everyCallIsASubtaskAndAnsweredWhenAllHaveEnded() {
        Answer answer = http.get(url("/minimal/structured?n=4&ms=100"));

        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.json().get("succeeded").asInt()).isEqualTo(4);
        assertThat(answer.json().get("failed").asInt()).isZero();
        assertThat(answer.json().get("timedOut").asBoolean()).isFalse();
    }

    @Test
    void aFanoutBesideOneInFlightIs503AndTheDeadlineCancelsTheCallsLongerThanIt() {
        CompletableFuture<Answer> slow = http.getAsync(url("/minimal/structured?n=4&ms=4000"));
        Await.until(() -> downstream.getEnvironment().metrics().counter(LiftOut.ACTIVE_REQUESTS).getCount() == 4,
                Duration.ofSeconds(10), "four calls in flight");

        Answer refused = http.get(url("/minimal/structured?n=1&ms=0"));
        JsonNode cancelled = slow.join().json();

        assertThat(refused.status()).as(refused.body()).isEqualTo(503);
        assertThat(refused.header("Retry-After")).isEqualTo("1");
        assertThat(cancelled.get("timedOut").asBoolean()).as(cancelled.toString()).isTrue();
        assertThat(cancelled.get("failed").asInt()).as(cancelled.toString()).isEqualTo(4);
        assertThat(http.get(url("/minimal/structured?n=4&ms=0")).json().get("succeeded").asInt()).as("places back")
                .isEqualTo(4);
    }

    private static String url(String pathAndQuery) {
        return LoopbackHttp.url(app.getLocalPort(), pathAndQuery);
    }
}
