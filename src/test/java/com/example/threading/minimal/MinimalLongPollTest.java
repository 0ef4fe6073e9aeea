package com.example.threading.minimal;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.dropwizard.util.Duration;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MinimalLongPoll} (at most 3 parked) in a bare Dropwizard application, a fresh one per test: one event
 * answers every parked poll, a fourth poll is refused with 503, a poll with no event gets 204 at its timeout, and the
 * server's stop answers the parked polls 503 at once instead of waiting for them.
 */
class MinimalLongPollTest {

    /** A copier's configuration: the polls' timeout. */
    public static final class PollConfiguration extends Configuration {
        @NotNull
        @JsonProperty
        private Duration pollTimeout = Duration.seconds(2);
    }

    /** A copier's application: the listing's two lines; the test publishes through {@link #polls}. */
    public static final class App extends Application<PollConfiguration> {
        private volatile MinimalLongPoll polls;

        @Override
        public void run(PollConfiguration configuration, Environment environment) {
            polls = new MinimalLongPoll(3, configuration.pollTimeout.toJavaDuration());
            polls.register(environment, "/minimal/events");
        }
    }

    private static final LoopbackHttp HTTP = new LoopbackHttp();
    /** Requests on a thread of the application context now: none once every doGet has returned. */
    private static final String DISPATCHES = "io.dropwizard.jetty.MutableServletContextHandler.active-dispatches";

    private DropwizardTestSupport<PollConfiguration> app;

    @AfterEach
    void stop() {
        app.after();
    }

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void oneEventAnswersEveryParkedPollAndAFourthIsRefused() throws Exception {
        start("60s");
        List<CompletableFuture<Answer>> polls = park(3);

        Answer fourth = HTTP.get(url("/minimal/events"));
        app.<App>getApplication().polls.publish("{\"price\":101.5}");

        assertThat(fourth.status()).isEqualTo(503);
        assertThat(fourth.header("Retry-After")).isEqualTo("1");
        assertThat(polls).allSatisfy(poll -> {
            assertThat(poll.join().status()).isEqualTo(200);
            assertThat(poll.join().header("Content-Type")).startsWith("application/json");
            assertThat(poll.join().json().get("price").asDouble()).isEqualTo(101.5);
        });
        assertThat(park(3)).as("places free again").hasSize(3);
    }

    @Test
    void aPollWithoutAnEventGets204AtItsTimeout() throws Exception {
        start("2s");

        Answer answer = HTTP.get(url("/minimal/events"));

        assertThat(answer.status()).isEqualTo(204);
        assertThat(answer.body()).isEmpty();
        assertThat(answer.latencyMs()).isGreaterThanOrEqualTo(1_900);
    }

    /** Without the stop's answer the polls (timeout 60 s) would hold the stop for the 30 s grace period, then be cut. */
    @Test
    void theStopAnswersEveryParkedPoll503AtOnce() throws Exception {
        start("60s");
        List<CompletableFuture<Answer>> polls = park(3);

        app.after();

        assertThat(polls).allSatisfy(poll -> {
            assertThat(poll.join().status()).isEqualTo(503);
        });
    }

    private void start(String pollTimeout) throws Exception {
        app = new DropwizardTestSupport<>(App.class, ResourceHelpers.resourceFilePath(LiftOut.CONFIG),
                ConfigOverride.config("pollTimeout", pollTimeout));
        app.before();
    }

    /** Sends {@code count} polls and waits until the server holds them all parked (every doGet has returned). */
    private List<CompletableFuture<Answer>> park(int count) {
        List<CompletableFuture<Answer>> polls = IntStream.range(0, count)
                .mapToObj(i -> HTTP.getAsync(url("/minimal/events"))).toList();
        Await.until(() -> app.getEnvironment().metrics().counter(LiftOut.ACTIVE_REQUESTS).getCount() == count
                && app.getEnvironment().metrics().counter(DISPATCHES).getCount() == 0,
                java.time.Duration.ofSeconds(10), count + " polls parked");
        return polls;
    }

    private String url(String pathAndQuery) {
        return LoopbackHttp.url(app.getLocalPort(), pathAndQuery);
    }
}
