package com.example.threading.events.stream.redis;

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
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.ResourceHelpers;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The long-poll on Redis copied alone: a bare Dropwizard application with {@link RedisEventStreamBundle} and
 * {@link EventsBundle}, two of them on one real Redis: an event published on one reaches a poll parked on the other.
 */
class RedisLiftOutTest {

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

    /** A copier's application: the long-poll bundle and the one that lets it run on Redis. */
    public static final class LiftedApplication extends Application<LiftedConfiguration> {
        @Override
        public void initialize(Bootstrap<LiftedConfiguration> bootstrap) {
            bootstrap.addBundle(new RedisEventStreamBundle());
            bootstrap.addBundle(new EventsBundle<>(LiftedConfiguration::getEvents));
        }

        @Override
        public void run(LiftedConfiguration configuration, Environment environment) {
        }
    }

    private static final LoopbackHttp HTTP = new LoopbackHttp();
    private static TestRedis redis;
    private static DropwizardTestSupport<LiftedConfiguration> one;
    private static DropwizardTestSupport<LiftedConfiguration> two;

    @BeforeAll
    static void startRedisAndTwoInstances() throws Exception {
        redis = TestRedis.startOrSkip();
        one = instance("dw-lift-1");
        two = instance("dw-lift-2");
    }

    @AfterAll
    static void stopAll() {
        for (DropwizardTestSupport<?> instance : new DropwizardTestSupport<?>[] {two, one}) {
            if (instance != null) {
                instance.after();
            }
        }
        if (redis != null) {
            redis.close();
        }
        HTTP.close();
    }

    @Test
    void anEventPublishedOnOneInstanceAnswersAPollParkedOnTheOther() throws Exception {
        Await.until(() -> healthy(one) && healthy(two), Duration.ofSeconds(30), "both instances reading the stream");
        CompletableFuture<Answer> poll = HTTP.getAsync(LoopbackHttp.url(two.getLocalPort(), "/events?timeout=30"));
        Await.until(() -> parked(two) == 1, Duration.ofSeconds(10), "the poll parked on the second instance");

        Answer published = HTTP.postJson(LoopbackHttp.url(one.getLocalPort(), "/events"), "{\"from\":1}");

        assertThat(published.status()).as(published.body()).isEqualTo(200);
        Answer answer = poll.get(20, TimeUnit.SECONDS);
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().get("events").get(0).get("id").asLong()).isEqualTo(published.json().get("id").asLong());
    }

    private static DropwizardTestSupport<LiftedConfiguration> instance(String prefix) throws Exception {
        DropwizardTestSupport<LiftedConfiguration> instance = new DropwizardTestSupport<>(LiftedApplication.class,
                ResourceHelpers.resourceFilePath(LiftOut.CONFIG), prefix,
                ConfigOverride.config(prefix, "events.tickPeriod", "0s"),
                ConfigOverride.config(prefix, "events.stream.type", "redis"),
                ConfigOverride.config(prefix, "events.stream.redis.uri", redis.uri()),
                ConfigOverride.config(prefix, "events.stream.redis.key", "lift-out"));
        instance.before();
        return instance;
    }

    private static boolean healthy(DropwizardTestSupport<LiftedConfiguration> instance) {
        return instance.getEnvironment().healthChecks().runHealthCheck(RedisEventStream.HEALTH_CHECK).isHealthy();
    }

    private static int parked(DropwizardTestSupport<LiftedConfiguration> instance) {
        return ((Number) instance.getEnvironment().metrics().getGauges().get("events.parked").getValue()).intValue();
    }
}
