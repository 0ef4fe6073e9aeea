package com.example.threading.minimal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.events.stream.redis.TestRedis;
import com.example.threading.testing.Await;
import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.ResourceHelpers;
import io.lettuce.core.RedisClient;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link MinimalRedisEvents} feeding {@link MinimalLongPoll} in two bare Dropwizard applications on one real Redis:
 * an event published on one instance answers the polls parked on both; while Redis is down a publish fails within
 * its 5 s bound, and once Redis is back events flow again on both instances.
 */
class MinimalRedisEventsTest {

    /** A copier's configuration: where Redis is. */
    public static final class RedisConfiguration extends Configuration {
        @NotNull
        @JsonProperty
        private String redis;
    }

    /** A copier's application: the long-poll listing fed by the Redis listing. */
    public static final class App extends Application<RedisConfiguration> {
        private volatile MinimalRedisEvents events;

        @Override
        public void run(RedisConfiguration configuration, Environment environment) {
            MinimalLongPoll polls = new MinimalLongPoll(100, 64, Duration.ofSeconds(5));
            environment.servlets().addServlet("minimal-longpoll", polls).addMapping("/minimal/events");
            environment.lifecycle().addEventListener(polls);
            events = new MinimalRedisEvents(RedisClient.create(configuration.redis), "minimal-events", polls::publish);
            environment.lifecycle().manage(events);
        }
    }

    private static final LoopbackHttp HTTP = new LoopbackHttp();
    private static TestRedis redis;
    private static DropwizardTestSupport<RedisConfiguration> first;
    private static DropwizardTestSupport<RedisConfiguration> second;

    @BeforeAll
    static void start() throws Exception {
        redis = TestRedis.startOrSkip();
        first = instance("first.");
        second = instance("second.");
    }

    @AfterAll
    static void stop() {
        Stream.of(first, second).filter(instance -> instance != null).forEach(DropwizardTestSupport::after);
        if (redis != null) {
            redis.close();
        }
        HTTP.close();
    }

    @Test
    void anEventPublishedOnOneInstanceAnswersThePollsOfBoth() throws Exception {
        List<CompletableFuture<Answer>> polls = park(2, first, second);

        String id = events(first).publish("{\"price\":101.5}").get(10, TimeUnit.SECONDS);

        assertThat(id).as("the stream id").matches("\\d+-\\d+");
        assertThat(polls).allSatisfy(poll -> {
            assertThat(poll.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
            assertThat(poll.get().json().path("events").path(0).path("data").path("price").asDouble()).isEqualTo(101.5);
        });
    }

    @Test
    void whileRedisIsDownAPublishFailsWithinItsBoundThenEventsFlowAgain() throws Exception {
        redis.stop();
        try {
            long publishing = System.nanoTime();
            assertThatThrownBy(() -> events(second).publish("{\"lost\":true}").get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);
            assertThat((System.nanoTime() - publishing) / 1_000_000).as("ms until the publish failed").isLessThan(10_000);
        } finally {
            redis.start();
        }

        // Publishes that timed out while Redis was down may still be appended once lettuce reconnects (at least
        // once, as documented): a poll may first get one of those, so each round publishes a new mark until both
        // instances' polls get the round's own.
        AtomicInteger round = new AtomicInteger();
        Await.until(() -> bothGetTheMark(round.incrementAndGet()), Duration.ofSeconds(60), "an event on both instances");
    }

    /** Parks one poll on each instance, publishes {@code {"mark":n}} on the second; whether both got that one. */
    private static boolean bothGetTheMark(int mark) {
        List<CompletableFuture<Answer>> polls = park(1, first, second);
        events(second).publish("{\"mark\":" + mark + "}").exceptionally(error -> "not taken").join();
        return polls.stream().map(CompletableFuture::join).allMatch(answer -> answer.status() == 200
                && answer.json().path("events").path(0).path("data").path("mark").asInt() == mark);
    }

    private static DropwizardTestSupport<RedisConfiguration> instance(String prefix) throws Exception {
        DropwizardTestSupport<RedisConfiguration> instance = new DropwizardTestSupport<>(App.class,
                ResourceHelpers.resourceFilePath(LiftOut.CONFIG), prefix, ConfigOverride.config(prefix, "redis", redis.uri()));
        instance.before();
        return instance;
    }

    private static MinimalRedisEvents events(DropwizardTestSupport<RedisConfiguration> instance) {
        return instance.<App>getApplication().events;
    }

    /** {@code count} polls on each instance, once each instance holds them. */
    @SafeVarargs
    private static List<CompletableFuture<Answer>> park(int count, DropwizardTestSupport<RedisConfiguration>... instances) {
        for (DropwizardTestSupport<RedisConfiguration> instance : instances) { // earlier polls are counted a moment longer
            Await.until(() -> instance.getEnvironment().metrics().counter(LiftOut.ACTIVE_REQUESTS).getCount() == 0,
                    Duration.ofSeconds(10), "earlier polls finished");
        }
        List<CompletableFuture<Answer>> polls = Stream.of(instances).flatMap(instance -> IntStream.range(0, count)
                .mapToObj(i -> HTTP.getAsync(LoopbackHttp.url(instance.getLocalPort(), "/minimal/events")))).toList();
        for (DropwizardTestSupport<RedisConfiguration> instance : instances) {
            Await.until(() -> instance.getEnvironment().metrics().counter(LiftOut.ACTIVE_REQUESTS).getCount() == count,
                    Duration.ofSeconds(10), count + " polls parked");
        }
        return polls;
    }
}
