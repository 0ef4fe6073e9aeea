package com.example.threading.events.sse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.events.EventsBundle;
import com.example.threading.events.EventsConfiguration;
import com.example.threading.events.sse.SseReader.SseEvent;
import com.example.threading.testing.Await;
import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.ResourceHelpers;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.net.http.HttpClient;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Server-Sent Events copied as an add-on: a bare Dropwizard application with the long-poll's {@link EventsBundle} and
 * one more line, {@link SseBundle}, each with its own section.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class SseLiftOutTest {

    /** A copier's configuration: Dropwizard's, plus the two sections. */
    public static final class LiftedConfiguration extends Configuration {
        @Valid
        @NotNull
        @JsonProperty
        private EventsConfiguration events = new EventsConfiguration();

        @Valid
        @NotNull
        @JsonProperty
        private SseConfiguration sse = new SseConfiguration();

        EventsConfiguration getEvents() {
            return events;
        }

        SseConfiguration getSse() {
            return sse;
        }
    }

    /** A copier's application: the long-poll, then the streams on top of it. */
    public static final class LiftedApplication extends Application<LiftedConfiguration> {
        @Override
        public void initialize(Bootstrap<LiftedConfiguration> bootstrap) {
            EventsBundle<LiftedConfiguration> events = new EventsBundle<>(LiftedConfiguration::getEvents);
            bootstrap.addBundle(events);
            bootstrap.addBundle(new SseBundle<>(events::base, LiftedConfiguration::getSse));
        }

        @Override
        public void run(LiftedConfiguration configuration, Environment environment) {
        }
    }

    /** The add-on before the bundle it builds on: a mistake the start must name. */
    public static final class WrongOrderApplication extends Application<LiftedConfiguration> {
        @Override
        public void initialize(Bootstrap<LiftedConfiguration> bootstrap) {
            EventsBundle<LiftedConfiguration> events = new EventsBundle<>(LiftedConfiguration::getEvents);
            bootstrap.addBundle(new SseBundle<>(events::base, LiftedConfiguration::getSse));
            bootstrap.addBundle(events);
        }

        @Override
        public void run(LiftedConfiguration configuration, Environment environment) {
        }
    }

    private static final DropwizardAppExtension<LiftedConfiguration> APP = new DropwizardAppExtension<>(
            LiftedApplication.class, ResourceHelpers.resourceFilePath(LiftOut.CONFIG),
            ConfigOverride.config("events.tickPeriod", "0s"), ConfigOverride.config("sse.heartbeat", "1s"));
    private static final LoopbackHttp HTTP = new LoopbackHttp();
    private static final Duration BOUND = Duration.ofSeconds(20);

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void aStreamReceivesWhatIsPublishedAndAPollStillWorks() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (SseReader stream = SseReader.open(client, url("/events/stream?topic=lifted"))) {
            assertThat(stream.response().statusCode()).isEqualTo(200);
            Await.until(() -> APP.getEnvironment().metrics().getGauges().get("events.sse.open").getValue().equals(1),
                    BOUND, "the stream open");
            Await.until(() -> ((Number) APP.getEnvironment().metrics().getGauges().get("events.parked").getValue())
                    .intValue() == 1, BOUND, "the stream's poll parked");

            assertThat(HTTP.postJson(url("/events?topic=lifted"), "{\"n\":1}").status()).isEqualTo(200);

            SseEvent event = stream.next(BOUND);
            assertThat(event.id()).startsWith("lifted:1:");
            assertThat(new ObjectMapper().readTree(event.data()).get("data").get("n").asInt()).isEqualTo(1);
            assertThat(Integer.parseInt(stream.retry())).as("sse.retry's default, 3 s, plus a jitter below it").isBetween(3000, 5999);
        }
        assertThat(HTTP.get(url("/events?topic=lifted&after=0&timeout=1")).json().get("events").get(0).get("id").asLong())
                .as("the long-poll beside it answers from the same history").isEqualTo(1);
        Await.until(() -> APP.getEnvironment().metrics().getGauges().get("events.sse.open").getValue().equals(0),
                BOUND, "the stream closed when the client left");
    }

    @Test
    void theAddOnBeforeTheLongPollFailsTheStartNamingTheOrder() {
        DropwizardTestSupport<LiftedConfiguration> wrong = new DropwizardTestSupport<>(WrongOrderApplication.class,
                ResourceHelpers.resourceFilePath(LiftOut.CONFIG));
        try {
            assertThatThrownBy(wrong::before).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("add it before the transports that build on it");
        } finally {
            wrong.after();
        }
    }

    private static String url(String pathAndQuery) {
        return LoopbackHttp.url(APP.getLocalPort(), pathAndQuery);
    }
}
