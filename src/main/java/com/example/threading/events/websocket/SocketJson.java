package com.example.threading.events.websocket;

import com.example.threading.events.history.FollowedCursors;
import com.example.threading.events.stream.Event;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The text of the messages a socket sends, each one JSON object with a {@code type}:
 * <ul>
 *   <li>{@code {"type":"event","event":{"id":..,"topic":..,"time":..,"data":..},"position":"room:42:E"}}: one event,
 *       as the long-poll lists it, and the socket's whole position after it (every topic's cursor, the format of a
 *       stream's {@code id:}), to resume from;</li>
 *   <li>{@code {"type":"missed","position":..}}: events before the next ones were lost;</li>
 *   <li>{@code {"type":"subscribed","topics":[..],"position":..,"ref":..}}: the topics now read, after a change;</li>
 *   <li>{@code {"type":"ack","event":{..},"ref":..}} and {@code {"type":"error","code":..,"message":..,"ref":..}}:
 *       the answer to a client's message, with the {@code ref} it gave;</li>
 *   <li>a socket's last message ({@code closing}, {@code reconnect}, {@code refused}, {@code expired}) with a
 *       {@code reason}, followed by the close frame.</li>
 * </ul>
 *
 * <p>Immutable: any thread may call any method.
 */
final class SocketJson {

    private static final byte[] EVENT_START = "{\"type\":\"event\",\"event\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] POSITION_START = ",\"position\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = "\"}".getBytes(StandardCharsets.US_ASCII);

    private final ObjectMapper mapper;

    SocketJson(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * One event's message in UTF-8, its JSON (made once for all its sockets, {@code EventsJson}) and the position after
     * it copied into one array (the message a socket writes, made with no text in between); a position holds only topic
     * names, numbers, epochs, {@code :} and {@code ,}, nothing JSON would escape.
     */
    static byte[] event(byte[] eventJson, FollowedCursors.Position position) {
        byte[] message = new byte[EVENT_START.length + eventJson.length + POSITION_START.length + position.length()
                + END.length];
        int at = copy(EVENT_START, message, 0);
        at = copy(eventJson, message, at);
        at = copy(POSITION_START, message, at);
        at = position.copyTo(message, at);
        copy(END, message, at);
        return message;
    }

    String missed(String position) {
        return text(Map.of("type", "missed", "position", position));
    }

    String subscribed(List<String> topics, String position, JsonNode ref) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("type", "subscribed");
        message.put("topics", topics);
        message.put("position", position);
        return withRef(message, ref);
    }

    String ack(Event event, JsonNode ref) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("type", "ack");
        message.put("event", event);
        return withRef(message, ref);
    }

    String error(int code, String text, JsonNode ref) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("type", "error");
        message.put("code", code);
        message.put("message", text);
        return withRef(message, ref);
    }

    /** A socket's last message, of {@code type}, before its close frame. */
    String last(String type, String reason) {
        return text(Map.of("type", type, "reason", reason));
    }

    /** As {@link #last(String, String)}, with when to come back (the stop's spread). */
    String closing(String reason, long retryAfterSeconds) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("type", "closing");
        message.put("reason", reason);
        message.put("retryAfterSeconds", retryAfterSeconds);
        return text(message);
    }

    private static int copy(byte[] from, byte[] into, int at) {
        System.arraycopy(from, 0, into, at, from.length);
        return at + from.length;
    }

    private String withRef(Map<String, Object> message, JsonNode ref) {
        if (ref != null) {
            message.put("ref", ref);
        }
        return text(message);
    }

    private String text(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("not serializable: " + value.getClass().getName(), e);
        }
    }
}
