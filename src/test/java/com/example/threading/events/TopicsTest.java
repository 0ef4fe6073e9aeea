package com.example.threading.events;

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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Topics on the real server: an event answers only its topic's polls, ids are per topic, a poll of several topics
 * is answered by the first news on any with every topic's cursor, bad names and too many topics are refused, idle
 * topics are forgotten.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class TopicsTest {

    private static final int MAX_TOPICS = 150;

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("events.tickPeriod", "0"),
            ConfigOverride.config("events.maxTopics", Integer.toString(MAX_TOPICS)),
            ConfigOverride.config("events.maxTopicsPerPoll", "4"),
            ConfigOverride.config("events.topicIdleTimeout", "2s"),
            ConfigOverride.config("events.retryAfter", "3s"));

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void anEventAnswersOnlyThePollsOfItsTopic() throws Exception {
        Map<String, List<CompletableFuture<Answer>>> pollsByTopic = new LinkedHashMap<>();
        for (int topic = 0; topic < 100; topic++) {
            List<CompletableFuture<Answer>> polls = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                polls.add(HTTP.getAsync(url("/events?topic=iso-" + topic + "&timeout=60")));
            }
            pollsByTopic.put("iso-" + topic, polls);
        }
        Await.until(() -> parked() >= 1000, Duration.ofSeconds(60), "1,000 polls parked on 100 topics");

        List<String> topics = List.copyOf(pollsByTopic.keySet());
        for (String topic : topics.subList(0, 50)) {
            publish(topic, "{\"to\":\"" + topic + "\"}");
        }
        for (String topic : topics.subList(0, 50)) {
            for (CompletableFuture<Answer> poll : pollsByTopic.get(topic)) {
                JsonNode answer = poll.get(30, TimeUnit.SECONDS).json();
                assertThat(answer.get("events")).hasSize(1);
                JsonNode event = answer.get("events").get(0);
                assertThat(event.get("topic").asText()).isEqualTo(topic);
                assertThat(event.get("id").asLong()).as("ids are per topic").isEqualTo(1);
                assertThat(event.get("data").get("to").asText()).isEqualTo(topic);
                assertThat(answer.get("lastId").asLong()).isEqualTo(1);
            }
        }
        // Counts move on the server's threads, a moment apart from the answers the clients read: wait for them.
        Await.until(() -> parked() == 500, Duration.ofSeconds(10), "the other topics' polls still parked, and only those");
        for (String topic : topics.subList(50, 100)) {
            assertThat(pollsByTopic.get(topic)).noneMatch(CompletableFuture::isDone);
            publish(topic, "{\"to\":\"" + topic + "\"}");
        }
        for (String topic : topics.subList(50, 100)) {
            for (CompletableFuture<Answer> poll : pollsByTopic.get(topic)) {
                assertThat(poll.get(30, TimeUnit.SECONDS).json().get("events").get(0).get("topic").asText()).isEqualTo(topic);
            }
        }
        Await.until(() -> parked() == 0, Duration.ofSeconds(10), "no poll left parked");
    }

    @Test
    void idsArePerTopicAndTheDefaultTopicIsTheOneWithoutAName() {
        long defaultBefore = lastId(HTTP.get(url("/events?after=0&timeout=1")));
        assertThat(publish("ids-a", "1").get("id").asLong()).isEqualTo(1);
        assertThat(publish("ids-a", "2").get("id").asLong()).isEqualTo(2);
        assertThat(publish("ids-b", "3").get("id").asLong()).isEqualTo(1);
        JsonNode untopical = HTTP.postJson(url("/events"), "4").json();
        assertThat(untopical.get("topic").asText()).isEqualTo("default");
        assertThat(untopical.get("id").asLong()).isEqualTo(defaultBefore + 1);

        JsonNode a = HTTP.get(url("/events?topic=ids-a&after=0&timeout=1")).json();
        assertThat(ids(a)).containsExactly(1L, 2L);
        assertThat(a.get("lastId").asLong()).isEqualTo(2);
        JsonNode b = HTTP.get(url("/events?topic=ids-b:0&timeout=1")).json();
        assertThat(ids(b)).containsExactly(1L);
        assertThat(b.get("events").get(0).get("data").asInt()).isEqualTo(3);
    }

    @Test
    void aPollOfSeveralTopicsIsAnsweredByTheFirstNewsWithEveryCursor() throws Exception {
        publish("multi-a", "\"a1\"");
        CompletableFuture<Answer> poll = HTTP.getAsync(url("/events?topic=multi-a:1&topic=multi-b:0&topic=multi-c&timeout=30"));
        Await.until(() -> parked() == 1, Duration.ofSeconds(10), "the poll parked on three topics");

        publish("multi-b", "\"b1\"");

        JsonNode answer = poll.get(20, TimeUnit.SECONDS).json();
        assertThat(ids(answer)).containsExactly(1L);
        assertThat(answer.get("events").get(0).get("topic").asText()).isEqualTo("multi-b");
        assertThat(answer.get("cursors").get("multi-a").asLong()).isEqualTo(1);
        assertThat(answer.get("cursors").get("multi-b").asLong()).isEqualTo(1);
        assertThat(answer.get("cursors").get("multi-c").asLong()).isZero();
        assertThat(answer.has("lastId")).isFalse();
        Await.until(() -> parked() == 0, Duration.ofSeconds(10), "no longer parked on the other two topics either");

        publish("multi-c", "\"c1\"");
        JsonNode atOnce = HTTP.get(url("/events?topic=multi-a:0&topic=multi-b:1&topic=multi-c:0&timeout=30")).json();
        assertThat(atOnce.get("events")).extracting(event -> event.get("topic").asText() + "/" + event.get("id").asLong())
                .containsExactly("multi-a/1", "multi-c/1");
        assertThat(atOnce.get("cursors").get("multi-a").asLong()).isEqualTo(1);
        assertThat(atOnce.get("cursors").get("multi-b").asLong()).isEqualTo(1);
        assertThat(atOnce.get("cursors").get("multi-c").asLong()).isEqualTo(1);
    }

    @Test
    void theBlockingTwinReadsTopicsToo() {
        publish("blocking-a", "\"x\"");
        JsonNode answer = HTTP.get(url("/events/blocking?topic=blocking-a:0&topic=blocking-b:0&timeout=1")).json();
        assertThat(answer.get("events").get(0).get("topic").asText()).isEqualTo("blocking-a");
        assertThat(answer.get("cursors").get("blocking-b").asLong()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"topic=bad%20name", "topic=", "topic=a/b", "topic=caf%C3%A9", "topic=a:x", "topic=a:-1",
        "topic=a&topic=a", "topic=a:1&after=2", "topic=a&topic=b&after=1", "topic=a&topic=b&topic=c&topic=d&topic=e"})
    void aBadTopicQueryIs400(String query) {
        Answer answer = HTTP.get(url("/events?" + query + "&timeout=1"));
        assertThat(answer.status()).as(query + ": " + answer.body()).isEqualTo(400);
        assertThat(answer.json().get("code").asInt()).isEqualTo(400);
        assertThat(HTTP.get(url("/events/blocking?" + query + "&timeout=1")).status()).isEqualTo(400);
    }

    @Test
    void aTopicNameOfSixtyFourIsTheLongest() {
        String longest = "t".repeat(64);
        assertThat(HTTP.get(url("/events?topic=" + longest + "&timeout=1")).status()).isEqualTo(204);
        assertThat(HTTP.get(url("/events?topic=" + longest + "t&timeout=1")).status()).isEqualTo(400);
        assertThat(HTTP.postJson(url("/events?topic=" + URLEncoder.encode("a b", StandardCharsets.UTF_8)), "1").status()).isEqualTo(400);
    }

    @Test
    void oneTopicTooManyIsRefusedWithRetryAfterAndIdleTopicsAreForgotten() throws Exception {
        Await.until(() -> topicsLive() <= 1, Duration.ofSeconds(30), "the earlier tests' topics forgotten (idle 2 s)");
        long refusedBefore = metrics().meter("events.topics.refused").getCount();
        // Every topic held by a parked poll: none can go idle while the refusals are checked, however slow the machine.
        List<CompletableFuture<Answer>> fills = new ArrayList<>();
        for (int i = 0; i < MAX_TOPICS - 1; i++) {
            fills.add(HTTP.getAsync(url("/events?topic=fill-" + i + "&timeout=60")));
        }
        Await.until(() -> parked() == MAX_TOPICS - 1, Duration.ofSeconds(30), "a poll parked on each of " + (MAX_TOPICS - 1) + " topics");
        assertThat(topicsLive()).isEqualTo(MAX_TOPICS);

        Answer poll = HTTP.get(url("/events?topic=one-too-many&timeout=1"));
        Answer post = HTTP.postJson(url("/events?topic=one-too-many"), "1");
        Answer blocking = HTTP.get(url("/events/blocking?topic=one-too-many&timeout=1"));
        // A batch with one topic too many publishes none of its events, not even those on topics held (fill-1 below), and
        // creates none of its topics.
        Answer batch = HTTP.postJson(url("/events/batch"), "[{\"topic\":\"fill-1\",\"data\":0},{\"topic\":\"one-too-many\",\"data\":1}]");

        for (Answer refused : List.of(poll, post, blocking, batch)) {
            assertThat(refused.status()).as(refused.body()).isEqualTo(503);
            assertThat(refused.header("Retry-After")).isEqualTo("3");
            assertThat(refused.json().get("message").asText()).contains("topics");
        }
        assertThat(metrics().meter("events.topics.refused").getCount()).isEqualTo(refusedBefore + 4);
        Await.until(() -> parked() == MAX_TOPICS - 1, Duration.ofSeconds(10), "nothing left parked by the refusals");

        // Answer every fill poll but the first: those topics go idle and are forgotten; fill-0 (its poll parked) and
        // the default topic stay.
        for (int i = 1; i < MAX_TOPICS - 1; i++) {
            assertThat(publish("fill-" + i, "1").get("id").asLong()).isEqualTo(1);
        }
        Await.until(() -> topicsLive() == 2, Duration.ofSeconds(30), "idle topics forgotten");
        // The live count falls under the hub's lock; the eviction is counted after it, on the sweeping thread.
        Await.until(() -> metrics().meter("events.topics.evicted").getCount() >= MAX_TOPICS - 2, Duration.ofSeconds(10),
                "the forgotten topics counted");
        assertThat(fills.get(0)).isNotDone();
        assertThat(publish("fill-0", "\"still here\"").get("id").asLong()).isEqualTo(1);
        assertThat(fills.get(0).get(20, TimeUnit.SECONDS).json().get("events").get(0).get("data").asText()).isEqualTo("still here");
        // A forgotten topic starts again at 1 (in-process numbering).
        assertThat(publish("fill-1", "2").get("id").asLong()).isEqualTo(1);
    }

    private static JsonNode publish(String topic, String json) {
        Answer answer = HTTP.postJson(url("/events?topic=" + topic), json);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        JsonNode event = answer.json();
        assertThat(event.get("topic").asText()).isEqualTo(topic);
        return event;
    }

    private static List<Long> ids(JsonNode answer) {
        List<Long> ids = new ArrayList<>();
        answer.get("events").forEach(event -> ids.add(event.get("id").asLong()));
        return ids;
    }

    private static long lastId(Answer answer) {
        return answer.status() == 204 ? 0 : answer.json().get("lastId").asLong();
    }

    private static String url(String pathAndQuery) {
        return LoopbackHttp.url(APP.getLocalPort(), pathAndQuery);
    }

    private static MetricRegistry metrics() {
        return APP.getEnvironment().metrics();
    }

    private static long parked() {
        return ((Number) metrics().getGauges().get("events.parked").getValue()).longValue();
    }

    private static long topicsLive() {
        return ((Number) metrics().getGauges().get("events.topics.live").getValue()).longValue();
    }
}
