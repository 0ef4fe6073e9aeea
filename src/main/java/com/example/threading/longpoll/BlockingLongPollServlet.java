package com.example.threading.longpoll;

import com.codahale.metrics.Meter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code GET /events/blocking?[topic=T[:N]...]&after=<id>&timeout=<s>}: the same contract as {@code GET /events}, but the Jetty
 * worker thread that runs this method sleeps in {@link BlockingWaits} until the event, the timeout or shutdown.
 * Each waiting client holds one thread of {@code server.maxThreads}; the rest queue in Jetty. This is the
 * comparison for the async version.
 *
 * <p>Thread-safety: stateless apart from immutable settings and thread-safe collaborators.
 */
final class BlockingLongPollServlet extends HttpServlet {

    private final transient BlockingWaits waits;
    private final transient JsonResponses json;
    private final transient AccessGate access;
    private final long retryAfterSeconds;
    private final transient ShutdownSpread shutdownSpread;
    private final transient Meter turnedAway;

    /**
     * Admits waits through {@code access} (who may read which topic, the query's limits); answers 503 with
     * {@code retryAfterSeconds} when full, and with {@code shutdownSpread}'s headers while stopping.
     */
    BlockingLongPollServlet(BlockingWaits waits, JsonResponses json, AccessGate access, long retryAfterSeconds,
                            ShutdownSpread shutdownSpread, Meter turnedAway) {
        this.waits = waits;
        this.json = json;
        this.access = access;
        this.retryAfterSeconds = retryAfterSeconds;
        this.shutdownSpread = shutdownSpread;
        this.turnedAway = turnedAway;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!"GET".equals(request.getMethod())) {
            response.setHeader("Allow", "GET");
            json.writeError(response, 405, request.getMethod() + " is not supported on /events/blocking");
            return;
        }
        PollParameters parameters = access.admitPoll(request, response);
        if (parameters == null) {
            return;
        }
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
            response.setHeader("Retry-After", Long.toString(retryAfterSeconds));
            json.writeError(response, 503, "too many topics held (events.maxTopics); retry later");
        } else if (wait == BlockingWaits.Outcome.CLOSED) {
            turnedAway.mark();
            response.setHeader("Retry-After", Integer.toString(shutdownSpread.nextRetryAfter()));
            response.setHeader("Connection", "close");
            json.writeError(response, 503, EventHub.CLOSED_MESSAGE);
        } else {
            json.write(response, 200, json.bytes(wait.answer));
        }
    }
}
