package com.example.threading.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * /fanout at every size it accepts, and several at once, on a client pool of 8 threads that may run 8 calls at once:
 * every fan-out is answered, with every call made (never refused by the pool, never lost), or refused whole with
 * 503 + Retry-After + the JSON error body; afterwards no call holds a place. Before the call window, a single
 * {@code via=rxjava&n=700} never answered (RxJava dropped the tasks the pool's queue refused).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class FanoutConcurrencyTest {

    private static final int PLACES = 8;

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("client.minThreads", String.valueOf(PLACES)),
            ConfigOverride.config("client.maxThreads", String.valueOf(PLACES)),
            ConfigOverride.config("client.maxCallsInFlight", String.valueOf(PLACES)),
            // The tasks /fanout may hand the pool at once: a call, and the next one it starts as it ends.
            ConfigOverride.config("client.workQueueSize", String.valueOf(2 * PLACES)),
            ConfigOverride.config("client.retryAfter", "3s"));

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @AfterEach
    void nothingHoldsAPlaceAndThePoolRefusedNothing() {
        Await.until(() -> gauge("client.fanout.in-flight") == 0, Duration.ofSeconds(30), "every place given back");
        assertThat(metrics().counter("client.fanout.executor.rejected").getCount()).as("tasks the pool refused").isZero();
        assertThat(metrics().meter("client.fanout.rxjava.dropped").getCount()).as("errors RxJava dropped").isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"managed", "rxjava", "callback"})
    void theLargestFanoutMakesEveryCallEightAtATime(String via) {
        Answer answer = HTTP.get(url("/fanout?n=1000&ms=0&via=" + via));

        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        JsonNode result = answer.json();
        assertThat(result.get("succeeded").asInt()).as(answer.body()).isEqualTo(1000);
        assertThat(result.get("errors").asInt()).as(answer.body()).isZero();
        assertThat(result.get("threadsByPool").get("jersey-client-fanout-").asInt()).as(answer.body()).isBetween(1, PLACES);
        assertThat(result.get("executor").asText()).contains("at most 8 calls in flight");
    }

    @Test
    void aFanoutThatDoesNotFitIsRefusedWholeWithRetryAfter() {
        long rejectedBefore = metrics().meter("client.fanout.callback.rejected").getCount();
        CompletableFuture<Answer> holding = HTTP.getAsync(url("/fanout?n=" + PLACES + "&ms=1500&via=managed"));
        Await.until(() -> gauge("client.fanout.in-flight") == PLACES, Duration.ofSeconds(30), "the first fan-out holding every place");

        Answer refused = HTTP.get(url("/fanout?n=1&ms=0&via=callback"));

        assertThat(refused.status()).as(refused.body()).isEqualTo(503);
        assertThat(refused.header("Retry-After")).isEqualTo("3");
        assertThat(refused.json().get("code").asInt()).isEqualTo(503);
        assertThat(refused.json().get("message").asText()).contains("8 of its 8 calls in flight").contains("client.maxCallsInFlight");
        assertThat(metrics().meter("client.fanout.callback.rejected").getCount()).isEqualTo(rejectedBefore + 1);
        Answer first = holding.join();
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        assertThat(first.json().get("succeeded").asInt()).isEqualTo(PLACES);
    }

    @Test
    void severalAtOnceAreEachAnsweredOrRefusedWhole() {
        long rejectedBefore = rejectedCount();
        List<String> vias = List.of("managed", "rxjava", "callback");
        List<CompletableFuture<Answer>> answers = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            answers.add(HTTP.getAsync(url("/fanout?n=" + (i % 2 == 0 ? 400 : 3) + "&ms=2&via=" + vias.get(i % 3))));
        }

        int answered = 0;
        int refused = 0;
        for (CompletableFuture<Answer> pending : answers) {
            Answer answer = pending.join();
            if (answer.status() == 200) {
                answered++;
                JsonNode result = answer.json();
                assertThat(result.get("errors").asInt()).as(answer.body()).isZero();
                assertThat(result.get("succeeded").asInt()).as(answer.body()).isEqualTo(result.get("n").asInt());
            } else {
                refused++;
                assertThat(answer.status()).as(answer.body()).isEqualTo(503);
                assertThat(answer.header("Retry-After")).isEqualTo("3");
                assertThat(answer.json().get("code").asInt()).isEqualTo(503);
            }
        }
        assertThat(answered).isPositive();
        assertThat(rejectedCount() - rejectedBefore).isEqualTo(refused);
    }

    private static long rejectedCount() {
        return metrics().meter("client.fanout.managed.rejected").getCount()
                + metrics().meter("client.fanout.rxjava.rejected").getCount()
                + metrics().meter("client.fanout.callback.rejected").getCount();
    }

    private static String url(String pathAndQuery) {
        return LoopbackHttp.url(APP.getLocalPort(), pathAndQuery);
    }

    private static MetricRegistry metrics() {
        return APP.getEnvironment().metrics();
    }

    private static long gauge(String name) {
        return ((Number) metrics().getGauges().get(name).getValue()).longValue();
    }
}
