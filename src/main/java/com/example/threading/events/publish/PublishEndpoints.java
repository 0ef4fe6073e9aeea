package com.example.threading.events.publish;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import com.example.threading.events.http.EventRoutes;
import com.example.threading.events.http.EventsHttp;
import com.example.threading.events.stream.EventSink;

/**
 * Publishing's one public face: {@code POST /events} publishes one event and {@code POST /events/batch} several, each
 * body read by a {@code ReadListener} (no thread waits for a slow client), checked whole, passed by the access policy,
 * and handed to the stream with a deadline; the answer is written from the stream's completion.
 */
public final class PublishEndpoints {

    /** Path where one event is published ({@code POST}; a {@code GET} there polls). */
    public static final String PATH = "/events";
    /** Path where several events are published in one request ({@code POST}). */
    public static final String BATCH_PATH = "/events/batch";

    private PublishEndpoints() {
    }

    /**
     * Adds {@code POST /events} and {@code POST /events/batch} to {@code routes}: events pass {@code http}'s access
     * policy and {@code limits}, on topics its hub holds or may create, and go to {@code sink}; metrics
     * {@code events.publish.*} in {@code metrics}.
     */
    public static void register(EventRoutes routes, EventsHttp http, EventSink sink, PublishLimits limits,
                                MetricRegistry metrics) {
        EventPublishing publishing = new EventPublishing(sink, http.hub()::admitTopics, http.json(), http.access(), limits,
                new PublishMetrics(metrics));
        metrics.register("events.publish.reading", (Gauge<Integer>) publishing::bodiesInFlight);
        metrics.register("events.publish.in-flight", (Gauge<Integer>) publishing::inFlight);
        routes.add("POST", PATH, new PublishServlet(publishing::publish));
        routes.add("POST", BATCH_PATH, new PublishServlet(publishing::publishBatch));
    }
}
