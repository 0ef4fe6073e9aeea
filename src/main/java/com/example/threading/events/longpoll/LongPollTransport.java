package com.example.threading.events.longpoll;

import com.example.threading.events.http.EventRoutes;
import com.example.threading.events.http.EventsHttp;

/**
 * The long-poll transport's one public face: {@code GET /events} parks each poll in the hub as a started
 * {@code AsyncContext} (no thread waits) and answers it with one non-blocking write when its news, its deadline, a
 * refusal or the stop comes; {@code GET /events/blocking} is its blocking twin, which holds a Jetty worker per waiting
 * client, for comparison.
 */
public final class LongPollTransport {

    /** Path of the async long-poll ({@code GET}; a {@code POST} there publishes). */
    public static final String PATH = "/events";
    /** Path of the blocking long-poll, kept for comparison. */
    public static final String BLOCKING_PATH = "/events/blocking";

    private LongPollTransport() {
    }

    /** Adds {@code GET /events} and {@code GET /events/blocking}, answering from {@code http}'s hub, to {@code routes}. */
    public static void register(EventRoutes routes, EventsHttp http) {
        AsyncDelivery.Wire wire = new AsyncDelivery.Wire(http.json(), http.retryAfterSeconds(), http.hubMetrics().disconnects());
        routes.add("GET", PATH, new LongPollServlet(http.hub(), http.access(), wire));
        routes.add("GET", BLOCKING_PATH, new BlockingLongPollServlet(http.hub().blockingWaits(), http.json(), http.access(),
                wire, http.shutdownSpread(), http.hubMetrics().shutdownTurnedAway()));
    }
}
