package com.example.threading.events.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.events.stream.NewEvent;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The body of {@code POST /events/batch}: what is a batch, and the answer for what is not. */
class PublishBatchTest {

    private static final ObjectMapper MAPPER = Jackson.newObjectMapper();

    @Test
    void eventsKeepTheirOrderAndEachTopicIsNamedOnceInTheOrderFirstNamed() throws Exception {
        PublishBatch batch = parse("""
                [{"topic": "b", "data": {"n": 1}}, {"data": [1, 2]}, {"data": "x", "topic": "a"}, {"topic": "b", "data": null}]""");
        assertThat(batch.events()).extracting(NewEvent::topic).containsExactly("b", "default", "a", "b");
        assertThat(batch.events()).extracting(item -> item.data().toString())
                .containsExactly("{\"n\":1}", "[1,2]", "\"x\"", "null");
        assertThat(batch.topics()).containsExactly("b", "default", "a");
    }

    @Test
    void anEventsDataIsHeldToTheSizeOfOneEventAsSent() throws Exception {
        // {"s":"12345"} is 13 bytes; a string's size counts its quotes, as the body of a single POST would.
        String thirteen = "{\"s\":\"12345\"}";
        assertThat(parse("[{\"data\":" + thirteen + "}]", 13).events()).hasSize(1);
        assertRefused("[{\"topic\":\"a\",\"data\":" + thirteen + "}]", 12, 413, "event 0's data is 13 bytes; an event is limited to 12");
        assertRefused("[{\"data\":1},{\"data\":\"0123456789abc\"}]", 12, 413, "event 1's data is 15 bytes");
    }

    @Test
    void aBatchHoldsOneToMaxEventsEvents() throws Exception {
        assertThat(parse("[{\"data\":1},{\"data\":2},{\"data\":3}]", 3, 100).events()).hasSize(3);
        assertRefused("[{\"data\":1},{\"data\":2},{\"data\":3},{\"data\":4}]", 3, 100, 400, "at most 3 events (events.maxBatchEvents)");
        assertRefused("[]", 3, 100, 400, "at least one event");
    }

    @Test
    void whatIsNotABatchIsA400SayingWhatABatchIs() {
        assertRefused("{\"data\":1}", 400, "a batch is a JSON array of");
        assertRefused("[1]", 400, "event 0 is not an object");
        assertRefused("[{\"data\":1},{\"topic\":\"a\"}]", 400, "event 1 has no data");
        assertRefused("[{\"data\":1,\"extra\":2}]", 400, "unknown field 'extra'");
        assertRefused("[{\"data\":1,\"data\":2}]", 400, "a second or an unknown field 'data'");
        assertRefused("[{\"topic\":7,\"data\":1}]", 400, "event 0's topic is not a string");
        assertRefused("[{\"topic\":\"no spaces\",\"data\":1}]", 400, "a topic name is 1 to 64 of");
        assertRefused("[{\"data\":1}] [", 400, "goes on after the batch's array");
        assertRefused("[{\"data\":1}", 400, "this is not JSON");
        assertRefused("", 400, "a batch is a JSON array of");
    }

    private static PublishBatch parse(String body) throws BodyRefusal {
        return parse(body, 50, 4096);
    }

    private static PublishBatch parse(String body, long maxEventBytes) throws BodyRefusal {
        return parse(body, 50, maxEventBytes);
    }

    private static PublishBatch parse(String body, int maxEvents, long maxEventBytes) throws BodyRefusal {
        return PublishBatch.parse(MAPPER, body.getBytes(StandardCharsets.UTF_8), maxEvents, maxEventBytes);
    }

    private static void assertRefused(String body, int status, String message) {
        assertRefused(body, 50, 4096, status, message);
    }

    private static void assertRefused(String body, long maxEventBytes, int status, String message) {
        assertRefused(body, 50, maxEventBytes, status, message);
    }

    private static void assertRefused(String body, int maxEvents, long maxEventBytes, int status, String message) {
        assertThatThrownBy(() -> parse(body, maxEvents, maxEventBytes)).as(body)
                .isInstanceOfSatisfying(BodyRefusal.class, refusal -> assertThat(refusal.status()).isEqualTo(status))
                .hasMessageContaining(message);
    }
}
