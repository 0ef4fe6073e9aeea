package com.example.threading.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Gauge;
import com.example.threading.testing.Await;
import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.example.threading.testing.RawHttpConnection;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.ResourceHelpers;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The long-poll copied alone: a bare Dropwizard application whose only addition is {@link EventsBundle} (in-process
 * stream, publishing); Server-Sent Events and WebSocket are not there until their own bundles are added.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class EventsLiftOutTest {

    /** A copier's configuration: Dropwizard's, plus the one section. */
    public static final class LiftedConfiguration extends Configuration {
        @Valid
        @NotNull
        @JsonProperty
        private EventsConfiguration events = new EventsConfiguration();

        EventsConfiguration getEvents() {
            return events;
        }
    }

    /** A copier's application: one addBundle line. */
    public static final class LiftedApplication extends Application<LiftedConfiguration> {
        @Override
        public void initialize(Bootstrap<LiftedConfiguration> bootstrap) {
            bootstrap.addBundle(new EventsBundle<>(LiftedConfiguration::getEvents));
        }

        @Override
        public void run(LiftedConfiguration configuration, Environment environment) {
        }
    }

    private static final DropwizardAppExtension<LiftedConfiguration> APP = new DropwizardAppExtension<>(
            LiftedApplication.class, ResourceHelpers.resourceFilePath(LiftOut.CONFIG),
            ConfigOverride.config("events.tickPeriod", "0s"));
    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void aParkedPollIsAnsweredByThePublishedEvent() throws Exception {
        long cursor = lastId();
        CompletableFuture<Answer> poll = HTTP.getAsync(url("/events?after=" + cursor + "&timeout=30"));
        Await.until(() -> parked() == 1, Duration.ofSeconds(10), "the poll parked");

        Answer published = HTTP.postJson(url("/events"), "{\"hello\":1}");

        assertThat(published.status()).as(published.body()).isEqualTo(200);
        Answer answer = poll.get(20, TimeUnit.SECONDS);
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().get("events").get(0).get("data").get("hello").asInt()).isEqualTo(1);
        assertThat(answer.json().get("lastId").asLong()).isEqualTo(cursor + 1);
    }

    @Test
    void theBlockingTwinAnswersToo() {
        Answer answer = HTTP.get(url("/events/blocking?after=0&timeout=1"));

        assertThat(answer.status()).isIn(200, 204);
    }

    @Test
    void theStreamsAndSocketsAreNotThereWithoutTheirBundles() {
        assertThat(HTTP.get(url("/events/stream?topic=t")).status()).as("Server-Sent Events: SseBundle").isEqualTo(404);
        assertThat(HTTP.get(url("/events/ws?topic=t")).status()).as("WebSocket: WebSocketBundle").isEqualTo(404);
        assertThat(APP.getEnvironment().metrics().getNames()).noneMatch(name -> name.startsWith("events.sse.")
                || name.startsWith("events.websocket."));
    }

    @Test
    void aTimeoutAboveTheMaximumIs400() {
        assertThat(HTTP.get(url("/events?timeout=61")).status()).isEqualTo(400);
    }

    @Test
    void aParkedPollWhoseClientResetsLeavesNothingParkedOrInFlight() throws Exception {
        for (int i = 0; i < 3; i++) {
            try (RawHttpConnection connection = RawHttpConnection.open(APP.getLocalPort())) {
                connection.send(RawHttpConnection.requestHead("GET", "/events?timeout=1"));
                Await.until(() -> parked() >= 1, Duration.ofSeconds(10), "the poll parked");
                connection.reset();
            }
        }
        // Under HTTP/1.1 Jetty notices a gone client at the poll's timeout (1 s here), then completes it.
        Await.until(() -> parked() == 0, Duration.ofSeconds(30), "no poll parked");
        Await.until(() -> APP.getEnvironment().metrics().counter(LiftOut.ACTIVE_REQUESTS).getCount() == 0,
                Duration.ofSeconds(30), "no request in flight");
    }

    private static String url(String pathAndQuery) {
        return LoopbackHttp.url(APP.getLocalPort(), pathAndQuery);
    }

    private static long lastId() {
        return ((Number) APP.getEnvironment().metrics().getGauges().get("events.last-id").getValue()).longValue();
    }

    private static int parked() {
        Gauge<?> gauge = APP.getEnvironment().metrics().getGauges().get("events.parked");
        return ((Number) gauge.getValue()).intValue();
    }
}
