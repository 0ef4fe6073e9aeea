package com.example.threading.events.longpoll;

import com.example.threading.events.http.AccessGate;
import com.example.threading.events.hub.EventHub;
import io.opentelemetry.context.Scope;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code GET /events?[topic=T[:N]...]&after=<id>&timeout=<s>}: the request is put in async mode and parked in the
 * hub, on each topic it asks for, so no thread waits for the event. Mounted with {@code asyncSupported=true}.
 * A poll refused by {@link AccessGate} (who may read which topic) is answered before it reaches the hub.
 */
final class LongPollServlet extends HttpServlet {

    private final transient EventHub hub;
    private final transient AccessGate access;
    private final transient AsyncDelivery.Wire wire;

    /**
     * Polls pass {@code access} (who may read which topic, and the query's limits) before they reach {@code hub}, and
     * are answered as {@code wire} says.
     */
    LongPollServlet(EventHub hub, AccessGate access, AsyncDelivery.Wire wire) {
        this.hub = hub;
        this.access = access;
        this.wire = wire;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        AccessGate.Admitted poll = access.admitPoll(request, response);
        if (poll == null) {
            return;
        }
        AsyncContext context = request.startAsync();
        // No container timeout: the hub answers 204 at the poll's deadline itself (PollDeadlines). Jetty's would
        // schedule a timer per poll and cancel it per answer, all behind one lock: 20,000 answers queue on it.
        context.setTimeout(0);
        // The delivery keeps the context current here (with the caller), and answers in it from whichever thread.
        try (Scope caller = poll.context().makeCurrent()) {
            hub.poll(new AsyncDelivery(context, wire), poll.parameters().topics(), poll.parameters().timeoutMs());
        }
    }
}
