package com.example.threading.events.publish;

import com.example.threading.events.access.AccessDecision;
import com.example.threading.events.access.TopicAccess;
import com.example.threading.events.access.TopicGrant;
import com.example.threading.events.http.AccessGate;
import com.example.threading.events.http.JsonResponses;
import com.example.threading.events.stream.EventSink;
import com.example.threading.events.stream.TopicNames;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * {@code POST /events[?topic=T]} and {@code POST /events/batch}: checks who is publishing and whether they may
 * publish on the topic ({@link AccessGate}; by default {@link com.example.threading.events.access.PublishAccess}), the
 * topic's name, the media type and the
 * declared size from the request head alone, and that the hub holds the topic or may create it ({@code events.maxTopics};
 * else {@code 503}), then reads the body without blocking ({@link NonBlockingBody}, with a deadline of its own),
 * parses it as JSON and hands it to the {@link EventSink}; the answer is written from the sink's stage
 * ({@link PublishRequest}): {@code 200} with the published event, or {@code 503} when the stream cannot take it.
 * No thread waits for a slow client or for the stream. A request refused from its head is answered at once with
 * {@code Connection: close}, its body never read; so is a body that times out ({@code 408}), ends early
 * ({@code 400}) or grows too large ({@code 413}).
 *
 * <p>A batch names its topics in its body ({@link PublishBatch}), so they are checked once it is read: access to every
 * one and room in the hub for every one, or none of its events is published; then its events are published in order
 * and answered together ({@link PublishRequest#publishAll}).
 *
 * <p>At most {@code maxPublishing} accepted requests are in progress at once (reading, publishing, answering);
 * beyond, {@code 503} with {@code Retry-After}, from the head. Its only state is two atomic counts, each decremented
 * once per request it incremented; what follows a request's head runs on the threads {@link NonBlockingBody} and
 * {@link PublishRequest} name.
 */
final class EventPublishing {

    /** Room for an event's envelope in a batch ({@code {"topic":"<up to 64>","data":},} and some spacing). */
    static final long BATCH_ENVELOPE_BYTES = 128;

    private static final String TOO_MANY_TOPICS = "too many topics held (events.maxTopics); retry later";

    private final EventSink sink;
    private final ObjectReader reader;
    private final JsonResponses json;
    private final long maxBytes;
    private final AccessGate access;
    private final long bodyReadTimeoutMs;
    private final long publishTimeoutMs;
    private final long retryAfterSeconds;
    private final PublishMetrics metrics;
    private final Predicate<List<String>> admitTopics;
    private final int maxInFlight;
    private final int maxBatchEvents;
    private final long maxBatchBytes;
    private final AtomicInteger bodiesInFlight = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();

    /**
     * Publishes to {@code sink} what {@code access} lets through, within {@code limits}, on topics {@code admitTopics}
     * takes (all of a request's, or false: too many topics, none created); bodies are parsed with {@code json}'s mapper.
     */
    EventPublishing(EventSink sink, Predicate<List<String>> admitTopics, JsonResponses json, AccessGate access,
                    PublishLimits limits, PublishMetrics metrics) {
        this.sink = sink;
        this.admitTopics = admitTopics;
        this.reader = json.mapper().reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        this.json = json;
        this.maxBytes = limits.maxBytes();
        this.access = access;
        this.maxInFlight = limits.maxInFlight();
        this.maxBatchEvents = limits.maxBatchEvents();
        this.maxBatchBytes = limits.maxBatchEvents() * (limits.maxBytes() + BATCH_ENVELOPE_BYTES);
        this.bodyReadTimeoutMs = limits.bodyReadTimeoutMs();
        this.publishTimeoutMs = limits.publishTimeoutMs();
        this.retryAfterSeconds = limits.retryAfterSeconds();
        this.metrics = metrics;
    }

    /** Bodies of {@code POST /events} being read right now (for the {@code events.publish.reading} gauge). */
    int bodiesInFlight() {
        return bodiesInFlight.get();
    }

    /** Accepted {@code POST /events} not yet answered: reading, parsing or publishing (the {@code events.publish.in-flight} gauge). */
    int inFlight() {
        return inFlight.get();
    }

    /**
     * {@code POST /events}: checks the request head on the calling (container) thread, then reads, parses and publishes
     * without waiting.
     */
    void publish(HttpServletRequest request, HttpServletResponse response) throws IOException {
        AccessDecision caller = admitCaller(request, response);
        if (caller == null) {
            return;
        }
        String[] topics = request.getParameterValues("topic");
        String topic;
        try {
            if (topics != null && topics.length > 1) {
                throw new IllegalArgumentException("an event is published on one topic, " + topics.length + " were given");
            }
            topic = topics == null ? TopicNames.DEFAULT : TopicNames.check(topics[0]);
        } catch (IllegalArgumentException e) {
            refuse(response, 400, e.getMessage());
            return;
        }
        AccessDecision allowed = access.authorize(caller.grant(), TopicAccess.Action.PUBLISH, List.of(topic));
        if (!allowed.admitted()) {
            refuse(response, allowed);
            return;
        }
        if (request.getContentLengthLong() > maxBytes) {
            refuse(response, 413, "the event body is limited to " + maxBytes + " bytes");
            return;
        }
        if (!admitTopics.test(List.of(topic))) {
            // The hub holds events.maxTopics topics and this would be one more: refused before numbering anything.
            response.setHeader("Retry-After", Long.toString(retryAfterSeconds));
            refuse(response, 503, TOO_MANY_TOPICS);
            return;
        }
        try (Scope inCallerContext = AccessGate.inContextOf(caller.grant()).makeCurrent()) {
            read(request, response, maxBytes, (exchange, body) -> parseAndPublish(exchange, topic, body));
        }
    }

    /**
     * {@code POST /events/batch}: checks who is publishing and the request head on the calling (container) thread;
     * once the body is in, the events' topics (all of them, or none is published), then publishes them in order.
     */
    void publishBatch(HttpServletRequest request, HttpServletResponse response) throws IOException {
        AccessDecision caller = admitCaller(request, response);
        if (caller == null) {
            return;
        }
        if (request.getParameter("topic") != null) {
            refuse(response, 400, "a batch names its events' topics in its body, not in the query");
            return;
        }
        if (request.getContentLengthLong() > maxBatchBytes) {
            refuse(response, 413, "a batch body is limited to " + maxBatchBytes + " bytes (events.maxBatchEvents times "
                    + "events.maxEventSize, and " + BATCH_ENVELOPE_BYTES + " bytes per event for its topic)");
            return;
        }
        try (Scope inCallerContext = AccessGate.inContextOf(caller.grant()).makeCurrent()) {
            read(request, response, maxBatchBytes, (exchange, body) -> parseAndPublishBatch(exchange, caller.grant(), body));
        }
    }

    /** Who is publishing, and that the body is JSON, from the head; null after answering a refusal. */
    private AccessDecision admitCaller(HttpServletRequest request, HttpServletResponse response) throws IOException {
        AccessDecision caller = access.authenticate(request, TopicAccess.Action.PUBLISH);
        if (!caller.admitted()) {
            refuse(response, caller);
            return null;
        }
        // Before any parameter is read: for a form-encoded POST the servlet API would read (and wait for) the body to
        // find the parameters, holding this thread for as long as a client takes to send it.
        String contentType = request.getContentType();
        if (contentType == null || !isJson(contentType)) {
            refuse(response, 415, "the body must be JSON (Content-Type: application/json)");
            return null;
        }
        return caller;
    }

    /**
     * Takes one more of {@code maxPublishing} (else {@code 503} from the head), puts the request in async mode and reads
     * its body (at most {@code limit} bytes) without waiting; {@code then} runs on the thread that completed the body.
     */
    private void read(HttpServletRequest request, HttpServletResponse response, long limit,
                      BiConsumer<PublishRequest, byte[]> then) throws IOException {
        if (inFlight.incrementAndGet() > maxInFlight) {
            // Slow publishers (who passed the access rule) may hold at most maxPublishing requests (sockets, buffers);
            // the server's admission control does not count /events, so this is publishing's only bound.
            inFlight.decrementAndGet();
            metrics.busy.mark();
            response.setHeader("Retry-After", Long.toString(retryAfterSeconds));
            response.setHeader("Connection", JsonResponses.CLOSE);
            json.writeError(response, 503, maxInFlight + " publishes are in progress (events.maxPublishing); retry later");
            return;
        }
        AsyncContext context;
        try {
            context = request.startAsync();
        } catch (RuntimeException e) {
            inFlight.decrementAndGet();
            throw e;
        }
        // Jetty's async timeout is only a backstop: the body deadline and the publish deadline come first.
        context.setTimeout(bodyReadTimeoutMs + publishTimeoutMs + PublishRequest.BACKSTOP_MARGIN_MS);
        PublishRequest exchange = new PublishRequest(context, json, metrics, retryAfterSeconds, inFlight::decrementAndGet);
        context.addListener(exchange);
        // The body completes on a Jetty read callback or the delay scheduler: it is parsed and published in the
        // request's context (id, trace, caller), so the stream's publish and its log lines say whose event it is.
        NonBlockingBody.read(request.getInputStream(), request.getContentLengthLong(), limit, bodyReadTimeoutMs, bodiesInFlight)
                .whenComplete(Context.current().wrapConsumer((byte[] body, Throwable failure) -> {
                    if (failure != null) {
                        refuseBody(exchange, NonBlockingBody.refusalFor(failure, bodyReadTimeoutMs));
                    } else {
                        then.accept(exchange, body);
                    }
                }));
    }

    /** On the thread that completed the body (a Jetty read callback, or the delay scheduler for a 408). */
    private void parseAndPublish(PublishRequest exchange, String topic, byte[] body) {
        JsonNode data;
        try {
            data = reader.readTree(body);
        } catch (IOException e) {
            data = null;
        }
        if (data == null || data.isMissingNode()) {
            metrics.refused.mark();
            exchange.refuse(400, "the body is not one JSON value", false);
            return;
        }
        exchange.publish(sink, topic, data, publishTimeoutMs);
    }

    /** As {@link #parseAndPublish}, for a batch: nothing is published unless every event may be. */
    private void parseAndPublishBatch(PublishRequest exchange, TopicGrant grant, byte[] body) {
        PublishBatch batch;
        try {
            batch = PublishBatch.parse(json.mapper(), body, maxBatchEvents, maxBytes);
        } catch (BodyRefusal refusal) {
            metrics.refused.mark();
            exchange.refuse(refusal.status(), refusal.getMessage(), false);
            return;
        }
        AccessDecision allowed = access.authorize(grant, TopicAccess.Action.PUBLISH, batch.topics());
        if (!allowed.admitted()) {
            metrics.refused.mark();
            exchange.refuse(allowed.status(), allowed.message(), false);
            return;
        }
        if (!admitTopics.test(batch.topics())) {
            exchange.refuseForNow(TOO_MANY_TOPICS); // none of its topics created
            return;
        }
        exchange.publishAll(sink, batch, publishTimeoutMs);
    }

    private void refuseBody(PublishRequest exchange, BodyRefusal refusal) {
        metrics.refused.mark();
        if (refusal.status() == 408) {
            metrics.slowBodies.mark();
        } else if (refusal.status() == 400) {
            metrics.brokenBodies.mark();
        }
        // The rest of the body (if any) is never read: the connection closes after the answer.
        exchange.refuse(refusal.status(), refusal.getMessage(), true);
    }

    /**
     * Answers from the request head, on the calling container thread, without reading the body: the connection is
     * closed after the answer, so the unread body need not be received at all.
     */
    private void refuse(HttpServletResponse response, AccessDecision refusal) throws IOException {
        if (refusal.status() < 500) {
            metrics.refused.mark();
        }
        response.setHeader("Connection", JsonResponses.CLOSE);
        access.answer(response, refusal);
    }

    /** As {@link #refuse(HttpServletResponse, AccessDecision)}, for the refusals of this class. */
    private void refuse(HttpServletResponse response, int status, String message) throws IOException {
        metrics.refused.mark();
        response.setHeader("Connection", JsonResponses.CLOSE);
        json.writeError(response, status, message);
    }

    private static boolean isJson(String contentType) {
        String mediaType = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        return mediaType.equals("application/json") || mediaType.endsWith("+json");
    }
}
