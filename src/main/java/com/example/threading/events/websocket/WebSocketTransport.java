package com.example.threading.events.websocket;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import com.example.threading.events.http.EventRoutes;
import com.example.threading.events.http.EventsHttp;
import com.example.threading.events.http.EventsJson;
import com.example.threading.events.stream.EventSink;
import com.fasterxml.jackson.databind.DeserializationFeature;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.websocket.server.config.JettyWebSocketServletContainerInitializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The WebSocket transport's one public face: {@code GET /events/ws} upgrades to a socket that receives the hub's
 * events, one text message each, and sends its own messages (publish, subscribe, unsubscribe) on the same connection;
 * frames read on demand, sends asynchronous and bounded per socket, slow readers shed, the sockets bounded and swept.
 */
public final class WebSocketTransport {

    /** Path of the WebSocket ({@code GET} with {@code Upgrade: websocket}). */
    public static final String PATH = "/events/ws";

    private static final Logger LOG = LoggerFactory.getLogger(WebSocketTransport.class);
    /** How often the sockets are checked for a stalled reader, an ended lifetime or ended credentials. */
    private static final long SWEEP_MS = 250;
    /** A socket idle (nothing read, nothing written) for this many heartbeats is closed by Jetty. */
    private static final int IDLE_HEARTBEATS = 3;

    private WebSocketTransport() {
    }

    /** The bounds of a publish that the wing's configuration sets for every way of publishing. */
    public record PublishBounds(long maxEventBytes, long publishTimeoutMs) {
    }

    /**
     * Adds {@code GET /events/ws} (and its HTTP/2 form, {@code CONNECT}) on {@code http}'s hub to {@code routes} and
     * the WebSocket container to {@code context}, configured by {@code websocket}; publishes on the socket go to
     * {@code sink} within {@code publish}; its metrics {@code events.websocket.*} in {@code metrics}; {@code sweeper}
     * drops the sockets that stopped draining, ends those past their lifetime or credentials, and gives back the places
     * of upgraded sockets that never opened.
     */
    public static void register(EventRoutes routes, EventsHttp http, EventSink sink, PublishBounds publish,
                                WebSocketConfiguration websocket, MetricRegistry metrics, ScheduledExecutorService sweeper,
                                ServletContextHandler context) {
        long maxMessageBytes = websocket.getMaxMessageSize().toBytes();
        long heartbeatMs = websocket.getHeartbeat().toMilliseconds();
        JettyWebSocketServletContainerInitializer.configure(context, (servletContext, container) -> {
            container.setMaxTextMessageSize(maxMessageBytes); // larger: Jetty closes the socket with 1009
            container.setMaxBinaryMessageSize(maxMessageBytes);
            container.setIdleTimeout(Duration.ofMillis(heartbeatMs * IDLE_HEARTBEATS));
        });
        Sockets sockets = new Sockets(websocket.getMaxSockets(), websocket.getMaxLifetime().toNanoseconds(),
                websocket.getDrainTimeout().toNanoseconds(), websocket.getOpenTimeout().toNanoseconds());
        metrics.register("events.websocket.open", (Gauge<Integer>) sockets::openCount);
        metrics.register("events.websocket.max-sockets", (Gauge<Integer>) sockets::maxSockets);
        metrics.register("events.websocket.unsent-bytes", (Gauge<Long>) sockets::unsentBytes);
        SocketMetrics meters = new SocketMetrics(metrics);
        sweeper.scheduleWithFixedDelay(() -> {
            try {
                meters.neverOpened.mark(sockets.sweep(System.nanoTime()));
            } catch (RuntimeException bug) {
                LOG.error("sweeping the sockets failed; the next sweep retries", bug); // thrown, it would end the sweeps
            }
        }, SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
        SocketJson json = new SocketJson(http.json().mapper());
        SocketPublishing publishing = new SocketPublishing(sink, http.hub()::admitTopics, http.access(),
                http.json().mapper(), json, meters, new SocketPublishing.Limits(publish.maxEventBytes(),
                publish.publishTimeoutMs(), websocket.getMaxPublishesInFlight()));
        int maxTopics = http.access().limits().maxTopicsPerPoll();
        EventsJson<byte[]> eventJson = new EventsJson<>(http.json()::bytes); // each event's JSON once for all its sockets
        WebSocketServlet servlet = new WebSocketServlet(executor -> new EventSocket.Shared(http.hub(), json, eventJson,
                http.json().mapper().reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS), sockets, meters,
                publishing, http.access(), executor, heartbeatMs, maxTopics, websocket.getMaxUnsentBytes().toBytes(),
                websocket.getMaxMessagesPerSecond(), System::nanoTime), http.json(), http.retryAfterSeconds());
        routes.add("GET", PATH, servlet);
        routes.add(WebSocketServlet.CONNECT, PATH, servlet); // HTTP/2 (RFC 8441); needs CONNECT in server.allowedMethods
    }
}
