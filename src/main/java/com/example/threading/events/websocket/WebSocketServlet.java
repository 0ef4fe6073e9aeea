package com.example.threading.events.websocket;

import com.example.threading.events.access.AccessDecision;
import com.example.threading.events.access.TopicAccess;
import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.http.AccessGate;
import com.example.threading.events.http.JsonResponses;
import com.example.threading.events.http.PollParameters;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.eclipse.jetty.ee10.websocket.server.JettyWebSocketServerContainer;

/**
 * {@code GET /events/ws?[topic=T[:N[:E]]...]} (HTTP/1.1, RFC 6455), or the same path in an HTTP/2 extended
 * {@code CONNECT} (h2c, RFC 8441): upgrades to a WebSocket ({@link EventSocket}) of the same hub, topics and cursors as
 * the long-poll and the event stream. Everything that can be refused is refused before the upgrade,
 * with the JSON error of the long-poll: a caller or topic the access policy ({@code events.auth}) refuses
 * {@code 401}/{@code 403}, a bad query {@code 400}, a request that is not a WebSocket upgrade {@code 400}, all
 * {@code websocket.maxSockets} open {@code 503} with Retry-After. The caller's publish credentials are read
 * from the same head (they answer each publish on the socket), and the socket ends when the caller's credentials do.
 */
final class WebSocketServlet extends HttpServlet {

    /** The method of an HTTP/2 socket's extended CONNECT (RFC 8441). */
    static final String CONNECT = "CONNECT";
    /** Container tasks that run the sockets' work at once: two per core, so a drainer preempted leaves the cores busy. */
    private static final int DRAINERS = 2 * Runtime.getRuntime().availableProcessors();

    private final transient Function<Executor, EventSocket.Shared> shared;
    private final transient JsonResponses json;
    private final transient long retryAfterSeconds;
    private transient EventSocket.Shared with;
    private transient JettyWebSocketServerContainer container;

    /** Sockets whose shared parts {@code shared} makes from the container's executor, once the servlet starts. */
    WebSocketServlet(Function<Executor, EventSocket.Shared> shared, JsonResponses json, long retryAfterSeconds) {
        this.shared = shared;
        this.json = json;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    @Override
    public void init(ServletConfig config) throws ServletException {
        super.init(config);
        container = JettyWebSocketServerContainer.getContainer(config.getServletContext());
        if (container == null) {
            throw new ServletException("no WebSocket container on this context: WebSocketBundle configures it");
        }
        with = shared.apply(new DrainingExecutor(container.getExecutor(), DRAINERS));
    }

    /** Routed here for {@code GET} and {@code CONNECT} only; both take the same checks and upgrade. */
    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        AccessGate access = with.access();
        AccessDecision caller = access.authenticate(request, TopicAccess.Action.SUBSCRIBE);
        if (!caller.admitted()) {
            access.answer(response, caller);
            return;
        }
        List<TopicCursor> asked;
        try {
            asked = PollParameters.parse(request.getParameterValues("topic"), request.getParameter("after"),
                    request.getParameter("epoch"), null, 1, 1, with.maxTopics()).topics();
        } catch (IllegalArgumentException e) {
            json.writeError(response, 400, e.getMessage());
            return;
        }
        AccessDecision topics = access.authorize(caller.grant(), TopicAccess.Action.SUBSCRIBE,
                asked.stream().map(TopicCursor::topic).toList());
        if (!topics.admitted()) {
            access.answer(response, topics);
            return;
        }
        // HTTP/2 carries the socket on a stream opened by an extended CONNECT (RFC 8441), with no Upgrade header; the
        // container checks its :protocol.
        if (!CONNECT.equals(request.getMethod()) && !"websocket".equalsIgnoreCase(request.getHeader("Upgrade"))) {
            json.writeError(response, 400, "GET " + WebSocketBundle.PATH + " is a WebSocket: send Upgrade: websocket"
                    + " (or read the same events from GET /events/stream)");
            return;
        }
        Sockets sockets = with.sockets();
        if (!sockets.tryOpen()) {
            with.metrics().refused.mark();
            response.setHeader("Retry-After", Long.toString(retryAfterSeconds));
            json.writeError(response, 503, "too many sockets (" + sockets.maxSockets() + "), retry later");
            return;
        }
        long openedNanos = with.nanoClock().getAsLong();
        // A socket never outlives its credentials: at their end it closes (1008), and the client must come back.
        long expiresNanos = access.millisLeft(caller.grant())
                .map(millis -> openedNanos + TimeUnit.MILLISECONDS.toNanos(millis))
                .orElse(openedNanos + Long.MAX_VALUE / 2);
        boolean upgraded = false;
        try (Scope inCallerContext = AccessGate.inContextOf(caller.grant()).makeCurrent()) {
            EventSocket socket = new EventSocket(with, caller.grant(), access.publisherOf(request), asked, openedNanos,
                    expiresNanos, Context.current());
            upgraded = container.upgrade((upgradeRequest, upgradeResponse) -> socket, request, response);
            if (upgraded) {
                sockets.upgraded(socket); // its place comes back at its close, or after openTimeout if it never opens
            }
        } finally {
            if (!upgraded) {
                sockets.release(); // no socket: its place is free again
            }
        }
        if (!upgraded && !response.isCommitted()) {
            json.writeError(response, 400, "not a WebSocket upgrade this server takes (HTTP/1.1 GET with Upgrade:"
                    + " websocket, version 13, RFC 6455; or HTTP/2 CONNECT with :protocol websocket, RFC 8441)");
        }
    }
}
