package com.example.threading.events.access.jwt;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.events.EventsBundle;
import com.example.threading.events.EventsConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
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
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Per-topic access copied alone: a bare Dropwizard application with {@link JwtAccessBundle} and {@link EventsBundle},
 * {@code events.auth.type: jwt}: a reader's token parks on its topic and gets the event a writer's token publishes,
 * and each is refused what its claims do not list.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class JwtAccessLiftOutTest {

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

    /** A copier's application: the long-poll bundle and the one that makes {@code events.auth.type: jwt} known. */
    public static final class LiftedApplication extends Application<LiftedConfiguration> {
        @Override
        public void initialize(Bootstrap<LiftedConfiguration> bootstrap) {
            bootstrap.addBundle(new JwtAccessBundle());
            bootstrap.addBundle(new EventsBundle<>(LiftedConfiguration::getEvents));
        }

        @Override
        public void run(LiftedConfiguration configuration, Environment environment) {
        }
    }

    private static final DropwizardAppExtension<LiftedConfiguration> APP = new DropwizardAppExtension<>(
            LiftedApplication.class, ResourceHelpers.resourceFilePath(LiftOut.CONFIG),
            ConfigOverride.config("events.tickPeriod", "0s"),
            ConfigOverride.config("events.auth.type", "jwt"),
            ConfigOverride.config("events.auth.jwt.secret", Tokens.SECRET));
    private static final LoopbackHttp HTTP = new LoopbackHttp();
    private static final String READER = Tokens.hs256(Tokens.SECRET, Tokens.claims("reader", Duration.ofMinutes(5),
            List.of("auction-*"), List.of()).build());
    private static final String WRITER = Tokens.hs256(Tokens.SECRET, Tokens.claims("writer", Duration.ofMinutes(5),
            List.of(), List.of("auction-7")).build());

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void aReaderGetsWhatAWriterPublishesAndNeitherMoreThanItsClaims() throws Exception {
        CompletableFuture<Answer> poll = HTTP.sendAsync(request("/events?topic=auction-7&timeout=30", READER).GET().build());
        Await.until(() -> ((Number) APP.getEnvironment().metrics().getGauges().get("events.parked").getValue()).intValue() == 1,
                Duration.ofSeconds(10), "the reader's poll parked");

        Answer published = HTTP.send(request("/events?topic=auction-7", WRITER).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"bid\":12}")).build());

        assertThat(published.status()).as(published.body()).isEqualTo(200);
        Answer answer = poll.get(20, TimeUnit.SECONDS);
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().get("events").get(0).get("data").get("bid").asInt()).isEqualTo(12);
        assertThat(HTTP.send(request("/events?topic=auction-7", READER).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build()).status()).as("the reader publishes").isEqualTo(403);
        assertThat(HTTP.send(request("/events?topic=auction-7&timeout=1", WRITER).GET().build()).status())
                .as("the writer reads").isEqualTo(403);
        assertThat(HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/events?topic=auction-7&timeout=1")).status()).isEqualTo(401);
    }

    private static HttpRequest.Builder request(String pathAndQuery, String token) {
        return LoopbackHttp.request(LoopbackHttp.url(APP.getLocalPort(), pathAndQuery)).header("Authorization", "Bearer " + token);
    }
}
