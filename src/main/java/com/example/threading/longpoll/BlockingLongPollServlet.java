package com.example.threading.longpoll;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code GET /events/blocking?after=<id>&timeout=<s>}: the same contract as {@code GET /events}, but the Jetty
 * worker thread that runs this method sleeps on the hub until the event, the timeout or shutdown. Each waiting
 * client holds one thread of {@code server.maxThreads}; the rest queue in Jetty. This is the comparison for
 * the async version.
 *
 * <p>Thread-safety: stateless apart from immutable settings and thread-safe collaborators.
 */
final class BlockingLongPollServlet extends HttpServlet {

    private final transient EventHub hub;
    private final transient JsonResponses json;
    private final transient PollLimits limits;

    BlockingLongPollServlet(EventHub hub, JsonResponses json, PollLimits limits) {
        this.hub = hub;
        this.json = json;
        this.limits = limits;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!"GET".equals(request.getMethod())) {
            response.setHeader("Allow", "GET");
            json.writeError(response, 405, request.getMethod() + " is not supported on /events/blocking");
            return;
        }
        PollParameters parameters = limits.parseOrReject(request, response);
        if (parameters == null) {
            return;
        }
        EventHub.BlockingWait wait;
        try {
            wait = hub.await(parameters.after(), parameters.timeoutMs());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            wait = EventHub.BlockingWait.CLOSED;
        }
        if (wait == EventHub.BlockingWait.TIMED_OUT) {
            response.setStatus(204);
        } else if (wait == EventHub.BlockingWait.CLOSED) {
            response.setHeader("Retry-After", "0");
            response.setHeader("Connection", "close");
            json.writeError(response, 503, "server is stopping, poll again");
        } else {
            json.write(response, 200, json.bytes(wait.batch));
        }
    }
}
