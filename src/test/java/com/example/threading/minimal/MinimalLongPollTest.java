package com.example.threading.minimal;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.ResourceHelpers;
import io.dropwizard.util.Duration;
import jakarta.validation.constraints.NotNull;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MinimalLongPoll} (at most 3 parked, a history of 4 events) in a bare Dropwizard application, a fresh one per
 * test: one event answers every parked poll; a client that follows {@code lastId} gets every event once and in order,
 * also those published while it was between two polls; a cursor that fell out of the history is answered at once with
 * {@code "missed": true}; a fourth poll is refused with 503, a bad cursor with 400; a poll with no event gets 204 at
 * its timeout; the server's stop answers the parked polls 503 at once instead of waiting for them.
 */
class MinimalLongPollTest {

    /** A copier's configuration: the polls' timeout. */
    public static final class PollConfiguration extends Configuration {
        @NotNull
        @JsonProperty
        private Duration pollTimeout = Duration.seconds(2);
    }

    /** A copier's application: the listing and its two registration lines; the test publishes through {@link #polls}. */
    public static final class App extends Application<PollConfiguration> {
        private volatile MinimalLongPoll polls;

        @Override
        public void run(PollConfiguration configuration, Environment environment) {
            polls = new MinimalLongPoll(3, 4, configuration.pollTimeout.toJavaDuration());
            environment.servlets().addServlet("minimal-longpoll", polls).addMapping("/minimal/events");
            environment.lifecycle().addEventListener(polls); // answers the parked polls as the server starts to stop
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
        List<CompletableFuture<Answer>> polls = park(3, "/minimal/events");

        Answer fourth = HTTP.get(url("/minimal/events"));
        publish("{\"price\":101.5}");

        assertThat(fourth.status()).isEqualTo(503);
        assertThat(polls).allSatisfy(poll -> {
            assertThat(poll.join().status()).isEqualTo(200);
            assertThat(poll.join().header("Content-Type")).startsWith("application/json");
            JsonNode answer = poll.join().json();
            assertThat(answer.path("events").path(0).path("data").path("price").asDouble()).isEqualTo(101.5);
            assertThat(answer.path("lastId").asLong()).isEqualTo(1);
            assertThat(answer.path("missed").asBoolean()).isFalse();
        });
        assertThat(park(3, "/minimal/events")).as("places free again").hasSize(3);
    }

    @Test
    void aClientThatFollowsLastIdGetsEveryEventOnceInOrderAlsoThosePublishedBetweenItsPolls() throws Exception {
        start("60s");
        List<Integer> received = new ArrayList<>();
        long cursor = 0;
        for (int round = 0; round < 3; round++) {
            CompletableFuture<Answer> poll = park(1, "/minimal/events?after=" + cursor).get(0);
            publish("{\"n\":" + (2 * round + 1) + "}");
            JsonNode answer = poll.get(10, TimeUnit.SECONDS).json();
            answer.path("events").forEach(event -> received.add(event.path("data").path("n").asInt()));
            cursor = answer.path("lastId").asLong();
            // Between two polls of this client: an event no poll is parked for; the next poll gets it at once.
            publish("{\"n\":" + (2 * round + 2) + "}");
            Answer behind = HTTP.get(url("/minimal/events?after=" + cursor));
            assertThat(behind.status()).as("behind: answered at once from the history").isEqualTo(200);
            behind.json().path("events").forEach(event -> received.add(event.path("data").path("n").asInt()));
            assertThat(behind.json().path("missed").asBoolean()).isFalse();
            cursor = behind.json().path("lastId").asLong();
        }
        assertThat(received).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(cursor).isEqualTo(6);
    }

    @Test
    void aCursorThatFellOutOfTheHistoryIsAnsweredAtOnceMissedAndABadOne400() throws Exception {
        start("60s");
        for (int n = 1; n <= 6; n++) {
            publish("{\"n\":" + n + "}");
        }
        Answer behind = HTTP.get(url("/minimal/events?after=0"));
        assertThat(behind.status()).isEqualTo(200);
        assertThat(behind.json().path("missed").asBoolean()).as("events 1 and 2 fell out of a history of 4").isTrue();
        assertThat(behind.json().path("events")).hasSize(4);
        assertThat(behind.json().path("events").path(0).path("id").asLong()).isEqualTo(3);
        Answer ahead = HTTP.get(url("/minimal/events?after=99"));
        assertThat(ahead.json().path("missed").asBoolean()).as("a cursor from another life of the server").isTrue();
        assertThat(ahead.json().path("lastId").asLong()).isEqualTo(6);
        assertThat(HTTP.get(url("/minimal/events?after=x")).status()).isEqualTo(400);
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
        List<CompletableFuture<Answer>> polls = park(3, "/minimal/events");

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

    private void publish(String json) {
        app.<App>getApplication().polls.publish(json);
    }

    /** Sends {@code count} polls of {@code pathAndQuery} and waits until the server holds them all parked. */
    private List<CompletableFuture<Answer>> park(int count, String pathAndQuery) {
        List<CompletableFuture<Answer>> polls = IntStream.range(0, count)
                .mapToObj(i -> HTTP.getAsync(url(pathAndQuery))).toList();
        Await.until(() -> app.getEnvironment().metrics().counter(LiftOut.ACTIVE_REQUESTS).getCount() == count
                && app.getEnvironment().metrics().counter(DISPATCHES).getCount() == 0,
                java.time.Duration.ofSeconds(10), count + " polls parked");
        return polls;
    }

    private String url(String pathAndQuery) {
        return LoopbackHttp.url(app.getLocalPort(), pathAndQuery);
    }
}
