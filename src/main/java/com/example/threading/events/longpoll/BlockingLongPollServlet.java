package com.example.threading.events.longpoll;

import com.codahale.metrics.Meter;
import com.example.threading.events.http.AccessGate;
import com.example.threading.events.http.JsonResponses;
import com.example.threading.events.http.PollParameters;
import com.example.threading.events.hub.Answer;
import com.example.threading.events.hub.BlockingWaits;
import com.example.threading.events.hub.ShutdownSpread;
import io.opentelemetry.context.Scope;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code GET /events/blocking?[topic=T[:N]...]&after=<id>&timeout=<s>}: the same contract as {@code GET /events}, but the Jetty
 * worker thread that runs this method sleeps in {@link BlockingWaits} until the event, the timeout or shutdown.
 * Each waiting client holds one thread of {@code server.maxThreads}; the rest queue in Jetty. This is the
 * comparison for the async version.
 */
final class BlockingLongPollServlet extends HttpServlet {

    private final transient BlockingWaits waits;
    private final transient JsonResponses json;
    private final transient AccessGate access;
    private final transient AsyncDelivery.Wire wire;
    private final transient ShutdownSpread shutdownSpread;
    private final transient Meter turnedAway;

    /**
     * Admits waits through {@code access} (who may read which topic, the query's limits); answers refusals and the
     * stop as {@code wire} puts the hub's answers on HTTP, with {@code shutdownSpread}'s Retry-After while stopping.
     */
    BlockingLongPollServlet(BlockingWaits waits, JsonResponses json, AccessGate access, AsyncDelivery.Wire wire,
                            ShutdownSpread shutdownSpread, Meter turnedAway) {
        this.waits = waits;
        this.json = json;
        this.access = access;
        this.wire = wire;
        this.shutdownSpread = shutdownSpread;
        this.turnedAway = turnedAway;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        AccessGate.Admitted poll = access.admitPoll(request, response);
        if (poll == null) {
            return;
        }
        try (Scope caller = poll.context().makeCurrent()) {
            waitAndAnswer(poll.parameters(), response);
        }
    }

    /** Waits on this Jetty worker until news, the poll's timeout or the stop, and answers. */
    private void waitAndAnswer(PollParameters parameters, HttpServletResponse response) throws IOException {
        BlockingWaits.Outcome wait;
        try {
            wait = waits.await(parameters.topics(), parameters.timeoutMs());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            wait = BlockingWaits.Outcome.CLOSED;
        }
        if (wait == BlockingWaits.Outcome.TIMED_OUT) {
            response.setStatus(204);
        } else if (wait == BlockingWaits.Outcome.TOO_MANY_TOPICS) {
            wire.write(response, new Answer.Refused("too many topics held (events.maxTopics); retry later"));
        } else if (wait == BlockingWaits.Outcome.CLOSED) {
            turnedAway.mark();
            wire.write(response, new Answer.Closing(shutdownSpread.nextRetryAfter()));
        } else {
            json.write(response, 200, json.bytes(wait.answer));
        }
    }
}
