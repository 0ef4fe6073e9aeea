package com.example.threading.events.websocket;

import com.example.threading.events.access.AccessDecision;
import com.example.threading.events.access.TopicAccess;
import com.example.threading.events.http.AccessGate;
import com.example.threading.events.stream.Event;
import com.example.threading.events.stream.EventSink;
import com.example.threading.events.stream.TopicNames;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.context.Context;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A socket's {@code publish} messages, under the bounds of {@code POST /events}: the caller's publish credentials and
 * the topic ({@code 401}/{@code 403} as the access policy decides), the topic's name ({@code 400}), the event's size
 * ({@code events.maxEventSize}, {@code 413}), room in the hub for a new topic ({@code 503}), at most
 * {@code maxPublishesInFlight} of the socket's publishes waiting for the stream ({@code 429}), and the stream's answer
 * within {@code events.publishTimeout} ({@code 503}). The answer is an {@code ack} with the event as numbered, or an
 * {@code error} with the code {@code POST /events} would answer and the reason; each carries the message's
 * {@code ref}. No thread waits for the stream: the answer is sent from the stream's completion. Immutable: the
 * in-flight count it takes and gives back is the socket's.
 */
final class SocketPublishing {

    private static final Logger LOG = LoggerFactory.getLogger(SocketPublishing.class);

    /** The bounds of a socket's publishes. */
    record Limits(long maxEventBytes, long publishTimeoutMs, int maxInFlight) {
    }

    private final EventSink sink;
    private final Predicate<List<String>> admitTopics;
    private final AccessGate access;
    private final ObjectMapper mapper;
    private final SocketJson json;
    private final SocketMetrics metrics;
    private final Limits limits;

    SocketPublishing(EventSink sink, Predicate<List<String>> admitTopics, AccessGate access, ObjectMapper mapper,
                     SocketJson json, SocketMetrics metrics, Limits limits) {
        this.sink = sink;
        this.admitTopics = admitTopics;
        this.access = access;
        this.mapper = mapper;
        this.json = json;
        this.metrics = metrics;
        this.limits = limits;
    }

    /**
     * Publishes {@code message}'s event for the caller {@code publisher} (the socket's publish credentials, checked at
     * the upgrade); {@code reply} takes the answer's text, on the reading thread or the stream's completion thread.
     */
    void publish(ClientMessage message, AccessDecision publisher, AtomicInteger inFlight, Consumer<String> reply) {
        JsonNode ref = message.ref();
        if (!publisher.admitted()) {
            refuse(reply, publisher.status(), publisher.message(), ref);
            return;
        }
        String topic;
        try {
            topic = TopicNames.check(message.body().get("topic").textValue());
        } catch (IllegalArgumentException e) {
            refuse(reply, 400, e.getMessage(), ref);
            return;
        }
        AccessDecision allowed = access.authorize(publisher.grant(), TopicAccess.Action.PUBLISH, List.of(topic));
        if (!allowed.admitted()) {
            refuse(reply, allowed.status(), allowed.message(), ref);
            return;
        }
        JsonNode data = message.body().get("data");
        if (size(data) > limits.maxEventBytes()) {
            refuse(reply, 413, "the event's data is limited to " + limits.maxEventBytes() + " bytes", ref);
            return;
        }
        if (!admitTopics.test(List.of(topic))) {
            refuse(reply, 503, "too many topics held (events.maxTopics); retry later", ref);
            return;
        }
        if (inFlight.incrementAndGet() > limits.maxInFlight()) {
            inFlight.decrementAndGet();
            metrics.limited.mark();
            refuse(reply, 429, limits.maxInFlight() + " publishes of this socket are in progress"
                    + " (websocket.maxPublishesInFlight); wait for their answers", ref);
            return;
        }
        // The stream completes on whichever thread it likes (the JDK's delay scheduler for a timeout): the answer is
        // made in the socket's context (id, trace, caller), so its log lines say whose event it was.
        sink.publish(topic, data).toCompletableFuture()
                .orTimeout(limits.publishTimeoutMs(), TimeUnit.MILLISECONDS)
                .whenComplete(Context.current().wrapConsumer((Event event, Throwable failure) -> {
                    inFlight.decrementAndGet();
                    if (failure == null) {
                        metrics.published.mark();
                        LOG.debug("socket published event {} on {}", event.id(), event.topic());
                        reply.accept(json.ack(event, ref));
                        return;
                    }
                    metrics.publishFailures.mark();
                    LOG.debug("the event stream did not take a socket's event: {}", failure.toString());
                    reply.accept(json.error(503, failure instanceof TimeoutException
                            ? "the event stream did not take the event in time; retry later"
                            : "the event stream is unavailable; retry later", ref));
                }));
    }

    private void refuse(Consumer<String> reply, int code, String message, JsonNode ref) {
        metrics.badMessages.mark();
        reply.accept(json.error(code, message, ref));
    }

    private long size(JsonNode data) {
        try {
            return mapper.writeValueAsBytes(data).length;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return Long.MAX_VALUE;
        }
    }
}
