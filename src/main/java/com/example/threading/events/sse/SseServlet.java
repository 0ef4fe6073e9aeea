package com.example.threading.events.sse;

import com.example.threading.events.access.AccessDecision;
import com.example.threading.events.access.TopicAccess;
import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.http.AccessGate;
import com.example.threading.events.http.PollLimits;
import com.example.threading.events.http.PollParameters;
import io.opentelemetry.context.Scope;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * {@code GET /events/stream?[topic=T[:N[:E]]...]}: a Server-Sent Events stream of the same hub, topics and cursors as the
 * long-poll ({@link SseStream}). Everything that can be refused is refused before the stream starts, with the JSON
 * error of the long-poll: a caller or topic the access policy ({@code events.auth}) refuses {@code 401}/{@code 403}, a
 * bad query or {@code Last-Event-ID} {@code 400}, all {@code sse.maxStreams} open {@code 503} with Retry-After.
 * A stream ends (as at its lifetime) when the caller's credentials do. {@code Last-Event-ID} (the browser's on reconnect: a stream's {@code id:}) gives the
 * cursors of the topics it names, which must be topics the query asks for, in place of the query's.
 */
final class SseServlet extends HttpServlet {

    static final String EVENT_STREAM = "text/event-stream";

    private final transient SseStream.Shared with;
    private final transient PollLimits limits;
    private final transient AccessGate access;
    private final transient long maxUnsentBytes;
    private final transient long retryAfterSeconds;
    private final transient LongSupplier nanoClock;

    /** Streams of {@code with}'s hub for the callers and topics {@code access} lets through (subscribe). */
    SseServlet(SseStream.Shared with, PollLimits limits, AccessGate access, long maxUnsentBytes, long retryAfterSeconds,
               LongSupplier nanoClock) {
        this.with = with;
        this.limits = limits;
        this.access = access;
        this.maxUnsentBytes = maxUnsentBytes;
        this.retryAfterSeconds = retryAfterSeconds;
        this.nanoClock = nanoClock;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        AccessDecision caller = access.authenticate(request, TopicAccess.Action.SUBSCRIBE);
        if (!caller.admitted()) {
            access.answer(response, caller);
            return;
        }
        List<TopicCursor> asked;
        try {
            asked = asked(request);
        } catch (IllegalArgumentException e) {
            with.json().writeError(response, 400, e.getMessage());
            return;
        }
        AccessDecision topics = access.authorize(caller.grant(), TopicAccess.Action.SUBSCRIBE,
                asked.stream().map(TopicCursor::topic).toList());
        if (!topics.admitted()) {
            access.answer(response, topics);
            return;
        }
        SseStreams streams = with.streams();
        if (!streams.tryOpen()) {
            with.metrics().refused.mark();
            response.setHeader("Retry-After", Long.toString(retryAfterSeconds));
            with.json().writeError(response, 503,
                    "too many event streams (" + streams.maxStreams() + "), retry later");
            return;
        }
        response.setStatus(200);
        response.setContentType(EVENT_STREAM + ";charset=utf-8");
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("X-Accel-Buffering", "no"); // nginx: pass each event on at once
        SseOutput output;
        AsyncContext context;
        try {
            context = request.startAsync();
            context.setTimeout(0); // the hub's deadlines (heartbeats), the lifetime and the drain deadline end a stream
            output = new SseOutput(context, response.getOutputStream(), maxUnsentBytes, nanoClock,
                    with.metrics().eventsWritten);
        } catch (IOException | RuntimeException e) {
            streams.release(); // the stream never started: its place is free again
            throw e;
        }
        long openedNanos = nanoClock.getAsLong();
        // A stream never outlives its credentials: at their end it ends as at its lifetime, and the client must come back.
        long expiresNanos = access.millisLeft(caller.grant())
                .map(millis -> openedNanos + TimeUnit.MILLISECONDS.toNanos(millis))
                .orElse(openedNanos + Long.MAX_VALUE / 2);
        // The stream keeps the context current here (with the caller) and answers in it from whichever thread.
        try (Scope inCallerContext = AccessGate.inContextOf(caller.grant()).makeCurrent()) {
            SseStream stream = new SseStream(with, output, asked, openedNanos, expiresNanos, streams.nextJitterMs());
            context.addListener(stream);
            streams.started(stream);
            with.metrics().opened.mark();
            stream.start(streams.retryMs());
        }
    }

    /** The query's topics and cursors, those {@code Last-Event-ID} names replaced by its; throws for a 400. */
    private List<TopicCursor> asked(HttpServletRequest request) {
        List<TopicCursor> fromQuery = PollParameters.parse(request.getParameterValues("topic"), request.getParameter("after"),
                request.getParameter("epoch"), null, 1, 1, limits.maxTopicsPerPoll()).topics();
        String lastEventId = request.getHeader("Last-Event-ID");
        if (lastEventId == null || lastEventId.isBlank()) {
            return fromQuery;
        }
        List<TopicCursor> resumed;
        try {
            resumed = PollParameters.parse(lastEventId.trim().split(",", -1), null, null, null, 1, 1,
                    limits.maxTopicsPerPoll()).topics();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Last-Event-ID is not a position of this stream (topic:N:E,...): "
                    + e.getMessage());
        }
        Map<String, TopicCursor> byTopic = new LinkedHashMap<>();
        fromQuery.forEach(topic -> byTopic.put(topic.topic(), topic));
        for (TopicCursor cursor : resumed) {
            if (!byTopic.containsKey(cursor.topic())) {
                throw new IllegalArgumentException("Last-Event-ID names topic " + cursor.topic()
                        + ", which this stream does not ask for (topic=" + cursor.topic() + ")");
            }
            byTopic.put(cursor.topic(), cursor);
        }
        return new ArrayList<>(byTopic.values());
    }
}
