package com.example.threading.events.hub;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.stream.EventSource;
import com.example.threading.events.stream.EventSubscriber;
import com.example.threading.events.stream.TopicNames;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The hub's topics without a server, on a clock the test moves: batches per topic, polls of several topics, the limit, eviction. */
class EventHubTopicsTest {

    private static final ObjectMapper MAPPER = Jackson.newObjectMapper();

    private final HubMetrics metrics = new HubMetrics(new MetricRegistry());
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final List<String> watched = new ArrayList<>();
    private final List<String> forgotten = new ArrayList<>();
    private final EventHub hub = new EventHub(new EventHub.Settings(8, 100, 4, new ShutdownSpread(0), nanos::get), Runnable::run,
            MAPPER, metrics, new RecordingSource(), null);

    @Test
    void anEventAnswersOnlyItsTopicsPolls() throws IOException {
        RecordingDelivery onA = poll(List.of(new TopicCursor("a", null)));
        RecordingDelivery onB = poll(List.of(new TopicCursor("b", null)));

        hub.accept(Hubs.event("a", 1));

        assertThat(json(onA).get("events").get(0).get("topic").asText()).isEqualTo("a");
        assertThat(onB.completions()).isZero();
        assertThat(hub.parkedCount()).isEqualTo(1);
        assertThat(metrics.batchSize.getSnapshot().getMax()).isEqualTo(1);
    }

    @Test
    void aPollOfSeveralTopicsIsAnsweredOnceAndLeavesEveryTopic() throws IOException {
        hub.accept(Hubs.event(TopicNames.DEFAULT, 1));
        RecordingDelivery several = poll(List.of(new TopicCursor("a", 0L), new TopicCursor("b", 0L), new TopicCursor(TopicNames.DEFAULT, 1L)));
        assertThat(hub.parkedCount()).isEqualTo(1);

        hub.accept(Hubs.event("b", 1));

        JsonNode answer = json(several);
        assertThat(answer.get("events")).hasSize(1);
        assertThat(answer.get("cursors").get("a").asLong()).isZero();
        assertThat(answer.get("cursors").get("b").asLong()).isEqualTo(1);
        assertThat(answer.get("cursors").get(TopicNames.DEFAULT).asLong()).isEqualTo(1);
        assertThat(hub.parkedCount()).isZero();
        hub.accept(Hubs.event("a", 1)); // finds nothing parked: the poll left topic a too
        assertThat(several.completions()).isEqualTo(1);
        assertThat(metrics.batchSize.getSnapshot().getValues()).containsExactly(0, 0, 1);
    }

    @Test
    void eventsPublishedTogetherAnswerAPollOfSeveralOfTheirTopicsOnceWithAllOfThem() throws IOException {
        RecordingDelivery several = poll(List.of(new TopicCursor("a", 0L), new TopicCursor("b", 0L)));
        RecordingDelivery onB = poll(List.of(new TopicCursor("b", 0L)));

        hub.acceptAll(List.of(Hubs.event("a", 1), Hubs.event("b", 1), Hubs.event("a", 2)));

        assertThat(several.completions()).isEqualTo(1);
        assertThat(json(several).get("events")).hasSize(3);
        assertThat(json(several).get("cursors").toString()).isEqualTo("{\"a\":2,\"b\":1}");
        assertThat(json(onB).get("events")).hasSize(1);
        assertThat(hub.parkedCount()).isZero();
        assertThat(metrics.published.getCount()).isEqualTo(3);
        assertThat(metrics.batchSize.getCount()).as("one per event, each counting the polls it took").isEqualTo(3);
        assertThat(metrics.batchSize.getSnapshot().getValues()).containsExactlyInAnyOrder(1L, 1L, 0L);
    }

    @Test
    void theTopicTooManyIsRefusedAndIdleTopicsAreForgottenButNotOnesWithPolls() throws IOException {
        RecordingDelivery keeps = poll(List.of(new TopicCursor("kept", null)));
        assertThat(hub.admitTopics(List.of("x"))).isTrue();
        assertThat(hub.admitTopics(List.of("y"))).isTrue();
        assertThat(hub.topicCount()).isEqualTo(4); // default, kept, x, y

        RecordingDelivery refused = poll(List.of(new TopicCursor("z", null)));
        assertThat(refused.status()).isEqualTo(503);
        assertThat(json(refused).get("message").asText()).contains("too many topics (4 held)");
        assertThat(hub.admitTopics(List.of("z"))).isFalse();
        assertThat(hub.admitTopics(List.of("x", "z"))).as("a batch's topics: all or none").isFalse();
        assertThat(hub.topicCount()).isEqualTo(4);
        assertThat(metrics.topicsRefused.getCount()).isEqualTo(3);

        nanos.addAndGet(TimeUnit.SECONDS.toNanos(59));
        assertThat(hub.evictIdleTopics(TimeUnit.SECONDS.toNanos(60))).as("not idle long enough").isZero();
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(1));
        assertThat(hub.evictIdleTopics(TimeUnit.SECONDS.toNanos(60))).isEqualTo(2);
        assertThat(forgotten).containsExactlyInAnyOrder("x", "y");
        assertThat(hub.topicCount()).isEqualTo(2);
        assertThat(keeps.completions()).isZero();
        assertThat(watched).contains(TopicNames.DEFAULT, "kept", "x", "y");

        assertThat(hub.admitTopics(List.of("z", "kept", "w"))).as("room again, for both new ones").isTrue();
        assertThat(hub.topicCount()).isEqualTo(4);
        assertThat(hub.admitTopics(List.of("v"))).isFalse();
    }

    private RecordingDelivery poll(List<TopicCursor> topics) {
        RecordingDelivery context = new RecordingDelivery(true);
        hub.poll(context, topics, 60_000);
        return context;
    }

    private static JsonNode json(RecordingDelivery poll) throws IOException {
        return MAPPER.readTree(poll.body());
    }

    /** Records what the hub watches and forgets. */
    private final class RecordingSource implements EventSource {
        @Override
        public void subscribe(EventSubscriber subscriber) {
        }

        @Override
        public void watch(String topic) {
            watched.add(topic);
        }

        @Override
        public void forget(String topic, long lastIdSeen) {
            forgotten.add(topic);
        }
    }
}
