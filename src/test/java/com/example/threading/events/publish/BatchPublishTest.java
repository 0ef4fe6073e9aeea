package com.example.threading.events.publish;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.example.threading.testing.RawHttpConnection;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code POST /events/batch} on the real server: a batch's events are published in their order and answered once, and
 * a poll reads them like any others; a batch that is refused (its head, its body, one of its events) publishes none of
 * its events and leaves nothing behind. Topics held and access per topic are in {@link TopicsTest} and the JWT tests.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class BatchPublishTest {

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("events.tickPeriod", "0"),
            ConfigOverride.config("events.maxEventSize", "64B"),
            ConfigOverride.config("events.maxBatchEvents", "4"));

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void aBatchIsPublishedInItsOrderAndAnsweredOnceWithEveryEvent() throws Exception {
        CompletableFuture<Answer> parked = HTTP.getAsync(url("/events?topic=order-a:0&topic=order-b:0&timeout=30"));
        Await.until(() -> ((Number) APP.getEnvironment().metrics().getGauges().get("events.parked").getValue()).intValue() == 1,
                Duration.ofSeconds(30), "the poll parked");
        Answer published = batch("""
                [{"topic":"order-a","data":{"n":1}},{"topic":"order-b","data":"x"},{"topic":"order-a","data":{"n":2}}]""");

        assertThat(published.status()).as(published.body()).isEqualTo(200);
        JsonNode events = published.json().get("events");
        assertThat(events).hasSize(3);
        assertThat(List.of(event(events.get(0)), event(events.get(1)), event(events.get(2))))
                .containsExactly("order-a 1 {\"n\":1}", "order-b 1 \"x\"", "order-a 2 {\"n\":2}");
        // The parked poll, on both topics, is answered once with the whole batch (not by its first event alone), and a
        // poll from the start reads the same.
        for (Answer answer : List.of(parked.get(30, TimeUnit.SECONDS), HTTP.get(url("/events?topic=order-a:0&topic=order-b:0&timeout=1")))) {
            assertThat(answer.status()).isEqualTo(200);
            List<String> read = new ArrayList<>();
            answer.json().get("events").forEach(event -> read.add(event(event)));
            assertThat(read).containsExactlyInAnyOrder("order-a 1 {\"n\":1}", "order-b 1 \"x\"", "order-a 2 {\"n\":2}");
            assertThat(answer.json().get("cursors").toString()).isEqualTo("{\"order-a\":2,\"order-b\":1}");
        }
    }

    @Test
    void aBatchWithoutTopicsPublishesOnTheDefaultTopic() {
        long before = lastDefaultId();
        Answer published = batch("[{\"data\":1},{\"data\":2}]");
        assertThat(published.status()).as(published.body()).isEqualTo(200);
        assertThat(published.json().get("events").get(1).get("id").asLong()).isEqualTo(before + 2);
        assertThat(published.json().get("events").get(1).get("topic").asText()).isEqualTo("default");
    }

    @Test
    void aRefusedBodyIsJson4xxAndPublishesNothing() {
        long publishedBefore = meter("events.published");
        long refusedBefore = meter("events.publish.refused");
        long topicsBefore = meter("events.topics.created");
        String[][] refusals = {
                {"{\"topic\":\"r\",\"data\":1}", "400", "a batch is a JSON array"},
                {"[{\"topic\":\"r-ok\",\"data\":1},{\"topic\":\"not a name\",\"data\":2}]", "400", "a topic name is"},
                {"[{\"topic\":\"r-ok\",\"data\":1},{\"data\":1},{\"data\":1},{\"data\":1},{\"data\":1}]", "400", "at most 4 events"},
                {"[{\"topic\":\"r-ok\",\"data\":1},{\"data\":\"" + "x".repeat(63) + "\"}]", "413", "event 1's data is 65 bytes"},
                {"[{\"topic\":\"r-ok\",\"data\":1}", "400", "not JSON"},
        };
        for (String[] refusal : refusals) {
            Answer answer = batch(refusal[0]);
            assertThat(answer.status()).as(refusal[0]).isEqualTo(Integer.parseInt(refusal[1]));
            assertThat(answer.json().get("code").asInt()).isEqualTo(answer.status());
            assertThat(answer.json().get("message").asText()).contains(refusal[2]);
        }
        assertThat(meter("events.published")).as("nothing published").isEqualTo(publishedBefore);
        assertThat(meter("events.topics.created")).as("no topic created").isEqualTo(topicsBefore);
        assertThat(meter("events.publish.refused")).isEqualTo(refusedBefore + refusals.length);
        // A publish leaves the count when its request completes, a moment after its client has the answer.
        Await.until(() -> gauge("events.publish.in-flight") == 0, Duration.ofSeconds(10), "nothing left in flight");
    }

    @Test
    void whatTheHeadRefusesIsAnsweredAtOnceWithoutReadingTheBody() throws Exception {
        Answer get = HTTP.get(url("/events/batch"));
        assertThat(get.status()).isEqualTo(405);
        assertThat(get.header("Allow")).isEqualTo("POST");

        Answer withQueryTopic = HTTP.postJson(url("/events/batch?topic=a"), "[{\"data\":1}]");
        assertThat(withQueryTopic.status()).isEqualTo(400);
        assertThat(withQueryTopic.json().get("message").asText()).contains("in its body");

        Answer text = HTTP.send(LoopbackHttp.request(url("/events/batch")).header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("[{\"data\":1}]")).build());
        assertThat(text.status()).isEqualTo(415);

        // 4 events of 64 bytes and 128 for each one's envelope: 768 bytes; the answer comes though the body never does.
        for (String length : List.of("769", "100000")) {
            try (RawHttpConnection connection = RawHttpConnection.open(APP.getLocalPort())) {
                connection.socket().setSoTimeout(5_000);
                String answer = connection.send(RawHttpConnection.requestHead("POST", "/events/batch",
                        "Content-Type: application/json", "Content-Length: " + length) + "[").readToEnd();
                assertThat(answer).startsWith("HTTP/1.1 413 ").contains("limited to 768 bytes");
                assertThat(answer.toLowerCase()).contains("connection: close");
            }
        }
    }

    private static String event(JsonNode event) {
        return event.get("topic").asText() + " " + event.get("id").asLong() + " " + event.get("data");
    }

    private static Answer batch(String json) {
        return HTTP.postJson(url("/events/batch"), json);
    }

    private static long lastDefaultId() {
        return ((Number) APP.getEnvironment().metrics().getGauges().get("events.last-id").getValue()).longValue();
    }

    private static long meter(String name) {
        return APP.getEnvironment().metrics().meter(name).getCount();
    }

    private static int gauge(String name) {
        return ((Number) APP.getEnvironment().metrics().getGauges().get(name).getValue()).intValue();
    }

    private static String url(String pathAndQuery) {
        return LoopbackHttp.url(APP.getLocalPort(), pathAndQuery);
    }
}
