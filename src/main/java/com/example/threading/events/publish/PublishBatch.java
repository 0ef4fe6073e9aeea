package com.example.threading.events.publish;

import com.example.threading.events.stream.NewEvent;
import com.example.threading.events.stream.TopicNames;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The body of {@code POST /events/batch}, checked: {@code [{"topic":"room-1","data":{...}}, ...]}, one to
 * {@code maxEvents} events in the order they are to be published, each with its data (any JSON value) and an optional
 * topic ({@value TopicNames#DEFAULT} without one). Each event's data is held to the size one {@code POST /events} may
 * publish, measured as sent.
 *
 * @param events the events, in the order given
 * @param topics each topic named, once, in the order first named
 */
record PublishBatch(List<NewEvent> events, List<String> topics) {

    private static final String SHAPE = "a batch is a JSON array of {\"topic\": \"<name>\", \"data\": <JSON>}";

    /**
     * Parses {@code body} with {@code mapper}: at most {@code maxEvents} events, each one's data at most
     * {@code maxEventBytes}; a body that is no such batch is refused 400, or 413 for an event's data too large.
     */
    static PublishBatch parse(ObjectMapper mapper, byte[] body, int maxEvents, long maxEventBytes) throws BodyRefusal {
        List<NewEvent> events = new ArrayList<>();
        LinkedHashSet<String> topics = new LinkedHashSet<>();
        try (JsonParser parser = mapper.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw new BodyRefusal(400, SHAPE);
            }
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                if (events.size() == maxEvents) {
                    throw new BodyRefusal(400, "a batch holds at most " + maxEvents + " events (events.maxBatchEvents)");
                }
                NewEvent item = item(parser, events.size(), maxEventBytes);
                events.add(item);
                topics.add(item.topic());
            }
            if (parser.nextToken() != null) {
                throw new BodyRefusal(400, "the body goes on after the batch's array");
            }
        } catch (IOException | IllegalArgumentException malformed) {
            // Broken JSON (or a stream that ends inside the array); a topic name's own message says what a name is.
            throw new BodyRefusal(400, malformed instanceof IllegalArgumentException ? malformed.getMessage() : SHAPE + ", and this is not JSON");
        }
        if (events.isEmpty()) {
            throw new BodyRefusal(400, "a batch holds at least one event");
        }
        return new PublishBatch(List.copyOf(events), List.copyOf(topics));
    }

    /** The event that starts at the parser's current token, the {@code index}-th of the batch. */
    private static NewEvent item(JsonParser parser, int index, long maxEventBytes) throws IOException, BodyRefusal {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            throw new BodyRefusal(400, SHAPE + "; event " + index + " is not an object");
        }
        String topic = null;
        JsonNode data = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            if (field.equals("topic") && topic == null) {
                if (value != JsonToken.VALUE_STRING) {
                    throw new BodyRefusal(400, "event " + index + "'s topic is not a string");
                }
                topic = TopicNames.check(parser.getText());
            } else if (field.equals("data") && data == null) {
                long start = parser.currentTokenLocation().getByteOffset();
                data = parser.readValueAsTree();
                long size = parser.currentLocation().getByteOffset() - start;
                if (size > maxEventBytes) {
                    throw new BodyRefusal(413, "event " + index + "'s data is " + size + " bytes; an event is limited to "
                            + maxEventBytes + " (events.maxEventSize)");
                }
            } else {
                throw new BodyRefusal(400, "event " + index + " has a second or an unknown field '" + field
                        + "'; an event has a topic and its data");
            }
        }
        if (data == null) {
            throw new BodyRefusal(400, "event " + index + " has no data");
        }
        return new NewEvent(topic == null ? TopicNames.DEFAULT : topic, data);
    }
}
