package com.example.threading.events.publish;

import com.example.threading.events.http.JsonReply;
import com.example.threading.events.http.JsonResponses;
import com.example.threading.events.http.NonBlockingWrite;
import com.example.threading.events.stream.Event;
import com.example.threading.events.stream.EventSink;
import com.fasterxml.jackson.databind.JsonNode;
import io.opentelemetry.context.Context;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code POST /events} (or {@code /events/batch}) in async mode, from its parsed body to its answer: hands the
 * data to the {@link EventSink} and answers from the completion of the sink's stage (of every event's stage, for a
 * batch), {@code 200} with the event, or {@code 503} when the stream fails or has not taken the event within
 * {@code publishTimeout}. No thread waits for the stream.
 *
 * <p>Thread-safety: the outcome may come from any thread: the publishing Jetty thread (the in-process stream
 * completes at once), a store client's I/O thread, or the JDK's delay scheduler ({@code orTimeout}); Jetty's own
 * async timeout, a backstop set a little later than ours, runs on one of Jetty's threads. The first outcome wins
 * one compare-and-set ({@code answer}) and queues a {@link NonBlockingWrite}; the right to write is claimed when
 * the write starts ({@code claimed}), so that Jetty's timeout, which it never runs at the same time as a write
 * callback of the same request, either finds the write under way or claims it and writes the decided answer
 * itself (a request left unanswered by {@code onTimeout} would get Jetty's own 500). {@code EventSinkFailureTest}
 * checks it on a real Jetty, with outcomes from the publishing thread, from the publish timeout, and from a store's
 * thread answering many requests at once.
 */
final class PublishRequest implements AsyncListener {

    private static final Logger LOG = LoggerFactory.getLogger(PublishRequest.class);

    /** Jetty's async timeout fires this long after our own deadlines: it only catches what they missed. */
    static final long BACKSTOP_MARGIN_MS = 1000;

    static final String UNAVAILABLE_MESSAGE = "event stream unavailable, retry later";

    private final AsyncContext context;
    private final JsonResponses json;
    private final PublishMetrics metrics;
    private final long retryAfterSeconds;
    private final AtomicReference<JsonReply> answer = new AtomicReference<>();
    private final AtomicBoolean claimed = new AtomicBoolean();
    private final Runnable onComplete;
    /** The request's context (id, trace, caller), made on its thread; current wherever its outcome is answered. */
    private final Context requestContext = Context.current();

    /**
     * A request already in async mode; the caller adds this as its listener and sets the backstop timeout.
     * {@code onComplete} runs once, on the Jetty thread that completes the request.
     */
    PublishRequest(AsyncContext context, JsonResponses json, PublishMetrics metrics, long retryAfterSeconds,
                   Runnable onComplete) {
        this.context = context;
        this.json = json;
        this.metrics = metrics;
        this.retryAfterSeconds = retryAfterSeconds;
        this.onComplete = onComplete;
    }

    /** Publishes {@code data}; the answer is written when the sink's stage completes or {@code timeoutMs} passes. */
    void publish(EventSink sink, String topic, JsonNode data, long timeoutMs) {
        BoundedPublish.publish(sink, topic, data, timeoutMs).whenComplete(this::published);
    }

    /**
     * Publishes {@code batch}'s events in their order (one topic's events are numbered in it, see {@link EventSink});
     * answers {@code 200} {@code {"events":[...]}} when the stream has taken all of them, else {@code 503} whose
     * {@code events} holds each one taken and {@code null} for each one not taken, so a client can retry those alone.
     */
    void publishAll(EventSink sink, PublishBatch batch, long timeoutMs) {
        List<CompletableFuture<Event>> outcomes = BoundedPublish.publishAll(sink, batch.events(), timeoutMs);
        CompletableFuture.allOf(outcomes.toArray(CompletableFuture<?>[]::new)).whenComplete((all, anyFailure) -> {
            List<Event> events = new ArrayList<>(outcomes.size());
            for (CompletableFuture<Event> outcome : outcomes) {
                events.add(outcome.isCompletedExceptionally() ? null : outcome.join());
            }
            if (anyFailure == null) {
                answer(new JsonReply(200, Map.of(), json.bytes(new Published(events))));
                return;
            }
            metrics.failures.mark();
            LOG.debug("the event stream did not take every event of a batch: {}", anyFailure.toString());
            long missing = events.stream().filter(Objects::isNull).count();
            answer(retryLater(json.bytes(new PartlyPublished(503,
                    missing + " of " + events.size() + " events were not published (null in events): " + UNAVAILABLE_MESSAGE,
                    events))));
        });
    }

    private void published(Event event, Throwable failure) {
        if (failure == null) {
            answer(new JsonReply(200, Map.of(), json.bytes(event)));
            return;
        }
        metrics.failures.mark();
        if (failure instanceof TimeoutException) {
            LOG.debug("the event stream did not take an event in time");
        } else {
            LOG.debug("the event stream refused an event: {}", failure.toString());
        }
        answer(unavailable());
    }

    /** Answers {@code status} with a JSON error, and {@code Connection: close} when the rest of the body is to be left unread. */
    void refuse(int status, String message, boolean closeConnection) {
        answer(new JsonReply(status, closeConnection ? Map.of("Connection", JsonResponses.CLOSE) : Map.of(),
                json.error(status, message)));
    }

    /** Answers {@code 503} with {@code Retry-After}: a bound of this server's refused the request, not the stream. */
    void refuseForNow(String message) {
        answer(retryLater(json.error(503, message)));
    }

    private JsonReply unavailable() {
        return retryLater(json.error(503, UNAVAILABLE_MESSAGE));
    }

    /** A {@code 503} with {@code Retry-After} and {@code body}. */
    private JsonReply retryLater(byte[] body) {
        return new JsonReply(503, Map.of("Retry-After", Long.toString(retryAfterSeconds)), body);
    }

    /** Queues {@code decided} as the answer unless an earlier outcome was already queued. */
    void answer(JsonReply decided) {
        if (answer.compareAndSet(null, decided)) {
            NonBlockingWrite.send(context, decided, () -> claimed.compareAndSet(false, true), metrics.disconnects, requestContext);
        }
    }

    /** Jetty's backstop: writes the decided answer, or 503, unless the write has started. */
    @Override
    public void onTimeout(AsyncEvent event) throws IOException {
        if (!claimed.compareAndSet(false, true)) {
            return; // the answer is being written
        }
        JsonReply decided = answer.get();
        if (decided == null) {
            JsonReply late = unavailable();
            if (answer.compareAndSet(null, late)) {
                metrics.failures.mark();
            }
            decided = answer.get(); // late, or an outcome that came meanwhile (its queued write will find the claim taken)
        }
        HttpServletResponse response = (HttpServletResponse) context.getResponse();
        response.setStatus(decided.status());
        decided.headers().forEach(response::setHeader);
        response.setContentType(JsonResponses.JSON);
        response.setContentLength(decided.body().length);
        ServletOutputStream out = response.getOutputStream();
        if (out.isReady()) {
            out.write(decided.body()); // at most a few hundred bytes into an empty buffer
        }
        context.complete();
    }

    @Override
    public void onError(AsyncEvent event) {
        // The connection failed: nobody to answer. Jetty completes the request.
        if (claimed.compareAndSet(false, true)) {
            metrics.disconnects.mark();
            try {
                context.complete();
            } catch (IllegalStateException alreadyCompleted) {
                // Jetty completed it itself.
            }
        }
    }

    @Override
    public void onComplete(AsyncEvent event) {
        // Nothing else held: the answer and the stage's callback only refer to this object.
        onComplete.run();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // Started once.
    }

    /** The answer to a batch the stream took whole. */
    record Published(List<Event> events) {
    }

    /** The answer to a batch the stream took in part: Dropwizard's error shape, with each event taken or null. */
    record PartlyPublished(int code, String message, List<Event> events) {
    }
}
