package com.example.threading.events.websocket;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * One message a client sends, parsed and checked: a JSON object with one kind and, optionally, a {@code ref} (a number,
 * or a string of at most {@value #MAX_REF_LENGTH} characters) that the answer carries back.
 * <ul>
 *   <li>{@code {"publish":{"topic":"T","data":<any JSON>}}} publishes {@code data} on {@code T};</li>
 *   <li>{@code {"subscribe":["T","U:5:E"]}} adds topics, each as the query names them ({@code T}, {@code T:N},
 *       {@code T:N:E});</li>
 *   <li>{@code {"unsubscribe":["T"]}} drops topics.</li>
 * </ul>
 *
 * @param kind   what the client asks
 * @param ref    the client's reference for the answer, or null
 * @param body   {@code publish}'s object
 * @param topics {@code subscribe}'s and {@code unsubscribe}'s topic texts (empty for a publish)
 */
record ClientMessage(Kind kind, JsonNode ref, JsonNode body, List<String> topics) {

    static final int MAX_REF_LENGTH = 64;

    /** What a message asks. */
    enum Kind {
        PUBLISH, SUBSCRIBE, UNSUBSCRIBE
    }

    /**
     * Parses {@code text} with {@code reader} (which fails on trailing tokens); throws {@link Refusal} with the answer's
     * code and message for anything else than one of the messages above.
     */
    static ClientMessage parse(ObjectReader reader, String text, int maxTopics) {
        JsonNode message;
        try {
            message = reader.readTree(text);
        } catch (IOException e) {
            throw new Refusal("the message is not one JSON value", null);
        }
        if (message == null || !message.isObject()) {
            throw new Refusal("a message is a JSON object: {\"publish\":{..}}, {\"subscribe\":[..]} or {\"unsubscribe\":[..]}",
                    null);
        }
        JsonNode ref = message.get("ref");
        if (ref != null && !(ref.isIntegralNumber() || ref.isTextual() && ref.textValue().length() <= MAX_REF_LENGTH)) {
            throw new Refusal("ref is a number or a string of at most " + MAX_REF_LENGTH + " characters", null);
        }
        Kind kind = null;
        for (Iterator<String> names = message.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (name.equals("ref")) {
                continue;
            }
            Kind named = switch (name) {
                case "publish" -> Kind.PUBLISH;
                case "subscribe" -> Kind.SUBSCRIBE;
                case "unsubscribe" -> Kind.UNSUBSCRIBE;
                default -> throw new Refusal("unknown kind of message: " + clip(name)
                        + " (publish, subscribe or unsubscribe)", ref);
            };
            if (kind != null) {
                throw new Refusal("a message asks one thing: publish, subscribe or unsubscribe", ref);
            }
            kind = named;
        }
        if (kind == null) {
            throw new Refusal("a message asks one thing: publish, subscribe or unsubscribe", ref);
        }
        JsonNode body = message.get(kind.name().toLowerCase(java.util.Locale.ROOT));
        if (kind == Kind.PUBLISH) {
            if (!body.isObject() || !body.path("topic").isTextual() || !body.has("data")) {
                throw new Refusal("publish takes {\"topic\":\"T\",\"data\":<JSON>}", ref);
            }
            return new ClientMessage(kind, ref, body, List.of());
        }
        if (!body.isArray() || body.isEmpty()) {
            throw new Refusal(kind.name().toLowerCase(java.util.Locale.ROOT) + " takes a list of topics: [\"T\", \"U:5:E\"]",
                    ref);
        }
        if (body.size() > maxTopics) {
            throw new Refusal("a socket reads at most " + maxTopics + " topics (events.maxTopicsPerPoll), asked "
                    + body.size(), ref);
        }
        List<String> topics = new ArrayList<>(body.size());
        for (JsonNode topic : body) {
            if (!topic.isTextual()) {
                throw new Refusal("a topic is a string: \"T\", \"T:N\" or \"T:N:E\"", ref);
            }
            topics.add(topic.textValue());
        }
        return new ClientMessage(kind, ref, null, List.copyOf(topics));
    }

    private static String clip(String name) {
        return name.length() <= MAX_REF_LENGTH ? name : name.substring(0, MAX_REF_LENGTH) + "...";
    }

    /** A message refused with {@code 400}: the error message names the reason and carries the client's {@code ref}. */
    static final class Refusal extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private final transient JsonNode ref;

        Refusal(String message, JsonNode ref) {
            super(message, null, false, false);
            this.ref = ref;
        }

        JsonNode ref() {
            return ref;
        }
    }
}
