package com.example.threading.events.stream.redis;

import com.example.threading.events.stream.Event;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lettuce.core.StreamMessage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How an {@link Event} is stored as a stream entry: entry id {@code <id>-0}, fields {@code time} (epoch
 * milliseconds, Redis's clock), {@code epoch} (the stream's history) and {@code data} (the publisher's JSON as text); on a
 * cluster also the announcement {@code <id>:<ms>:<epoch>:<json>} of its shard channel.
 */
final class StreamEntries {

    static final String TIME = "time";
    static final String EPOCH = "epoch";
    static final String DATA = "data";

    private final ObjectMapper mapper;

    StreamEntries(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** The event of one entry of {@code topic}'s stream; {@link IllegalArgumentException} when it was not written by this stream. */
    Event event(String topic, StreamMessage<String, String> entry) {
        return event(topic, entry.getId(), entry.getBody());
    }

    /** The event of entry {@code entryId} of {@code topic} with fields {@code body}; {@link IllegalArgumentException} when it is not one. */
    Event event(String topic, String entryId, Map<String, String> body) {
        String time = body.get(TIME);
        String data = body.get(DATA);
        if (time == null || data == null) {
            throw new IllegalArgumentException("stream entry " + entryId + " lacks its time or data field");
        }
        try {
            return new Event(idOf(entryId), topic, Instant.ofEpochMilli(Long.parseLong(time)), mapper.readTree(data),
                    body.get(EPOCH));
        } catch (JsonProcessingException | NumberFormatException e) {
            throw new IllegalArgumentException("stream entry " + entryId + " is not an event: " + e.getMessage(), e);
        }
    }

    /**
     * The events of {@code topic} in a raw script reply listing entries as {@code [[id, [field, value, ...]], ...]} (what XRANGE
     * returns inside a Lua script), skipping entries that are not events.
     */
    List<Event> events(String topic, List<?> rawEntries) {
        List<Event> events = new ArrayList<>(rawEntries.size());
        for (Object rawEntry : rawEntries) {
            List<?> entry = (List<?>) rawEntry;
            List<?> fields = (List<?>) entry.get(1);
            Map<String, String> body = new HashMap<>();
            for (int i = 0; i + 1 < fields.size(); i += 2) {
                body.put(String.valueOf(fields.get(i)), String.valueOf(fields.get(i + 1)));
            }
            try {
                events.add(event(topic, String.valueOf(entry.get(0)), body));
            } catch (IllegalArgumentException notAnEvent) {
                // written by someone else on the same key: not ours to answer
            }
        }
        return events;
    }

    /**
     * The event of an announcement on {@code topic}'s shard channel ({@link StreamScripts#PUBLISH_AND_ANNOUNCE}:
     * {@code <id>:<epoch ms>:<stream epoch>:<json>}); {@link IllegalArgumentException} when it is not one.
     */
    Event announced(String topic, String message) {
        int first = message.indexOf(':');
        int second = first < 0 ? -1 : message.indexOf(':', first + 1);
        int third = second < 0 ? -1 : message.indexOf(':', second + 1);
        if (third < 0) {
            throw new IllegalArgumentException("announcement without <id>:<ms>:<epoch>: " + message);
        }
        try {
            return new Event(Long.parseLong(message.substring(0, first)), topic,
                    Instant.ofEpochMilli(Long.parseLong(message.substring(first + 1, second))),
                    mapper.readTree(message.substring(third + 1)), message.substring(second + 1, third));
        } catch (JsonProcessingException | NumberFormatException e) {
            throw new IllegalArgumentException("announcement is not an event: " + e.getMessage(), e);
        }
    }

    /** The event number of an entry id {@code <n>-<seq>}. */
    static long idOf(String entryId) {
        int dash = entryId.indexOf('-');
        return Long.parseLong(dash < 0 ? entryId : entryId.substring(0, dash));
    }

    /** The entry id of event number {@code id}. */
    static String entryId(long id) {
        return id + "-0";
    }
}
