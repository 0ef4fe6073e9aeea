package com.example.threading.longpoll.redis;

import com.example.threading.longpoll.Event;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lettuce.core.StreamMessage;
import java.time.Instant;

/**
 * How an {@link Event} is stored as a stream entry: entry id {@code <id>-0}, fields {@code time} (epoch
 * milliseconds, Redis's clock) and {@code data} (the publisher's JSON as text).
 *
 * <p>Thread-safety: immutable; the {@link ObjectMapper} is thread-safe once configured.
 */
final class StreamEntries {

    static final String TIME = "time";
    static final String DATA = "data";

    private final ObjectMapper mapper;

    StreamEntries(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** The event of one entry; fails with {@link IllegalArgumentException} when the entry was not written by this stream. */
    Event event(StreamMessage<String, String> entry) {
        String time = entry.getBody().get(TIME);
        String data = entry.getBody().get(DATA);
        if (time == null || data == null) {
            throw new IllegalArgumentException("stream entry " + entry.getId() + " lacks its time or data field");
        }
        try {
            return new Event(idOf(entry.getId()), Instant.ofEpochMilli(Long.parseLong(time)), mapper.readTree(data));
        } catch (JsonProcessingException | NumberFormatException e) {
            throw new IllegalArgumentException("stream entry " + entry.getId() + " is not an event: " + e.getMessage(), e);
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
