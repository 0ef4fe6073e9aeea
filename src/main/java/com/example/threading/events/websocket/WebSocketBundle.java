package com.example.threading.events.websocket;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import com.example.threading.events.http.EventRoutes;
import com.example.threading.events.http.EventsHttp;
import com.example.threading.events.http.EventsJson;
import com.example.threading.events.http.TransportBase;
import com.fasterxml.jackson.databind.DeserializationFeature;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Environment;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.websocket.server.config.JettyWebSocketServletContainerInitializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The WebSocket transport as a bundle added on top of the long-poll's: {@code GET /events/ws} upgrades to a socket that
 * receives the hub's events, one text message each, and sends its own messages (publish, subscribe, unsubscribe) on the
 * same connection; frames read on demand, sends asynchronous and bounded per socket, slow readers shed, the sockets
 * bounded and swept; configuration {@link WebSocketConfiguration}, metrics {@code events.websocket.*}.
 * <pre>{@code
 * EventsBundle<MyConfiguration> events = new EventsBundle<>(MyConfiguration::getEvents);
 * bootstrap.addBundle(events);
 * bootstrap.addBundle(new WebSocketBundle<>(events::base, MyConfiguration::getWebsocket));
 * }</pre>
 *
 * @param <C> the application's configuration
 */
public final class WebSocketBundle<C extends Configuration> implements ConfiguredBundle<C> {

    /** Path of the WebSocket ({@code GET} with {@code Upgrade: websocket}). */
    public static final String PATH = "/events/ws";

    private static final Logger LOG = LoggerFactory.getLogger(WebSocketBundle.class);
    /** How often the sockets are checked for a stalled reader, an ended lifetime or ended credentials. */
    private static final long SWEEP_MS = 250;
    /** A socket idle (nothing read, nothing written) for this many heartbeats is closed by Jetty. */
    private static final int IDLE_HEARTBEATS = 3;

    private final Supplier<TransportBase> base;
    private final Function<C, WebSocketConfiguration> section;

    /**
     * The sockets on what {@code base} gives once the long-poll's bundle has run (so add this bundle after it),
     * configured from the section {@code section} picks out of the application's configuration.
     */
    public WebSocketBundle(Supplier<TransportBase> base, Function<C, WebSocketConfiguration> section) {
        this.base = base;
        this.section = section;
    }

    /** Adds {@code GET /events/ws} (and {@code CONNECT} for HTTP/2), the WebSocket container, the sweep and gauges. */
    @Override
    public void run(C applicationConfiguration, Environment environment) {
        TransportBase from = base.get();
        EventRoutes routes = new EventRoutes(from.http().json());
        register(routes, from, section.apply(applicationConfiguration), environment.metrics(),
                environment.getApplicationContext());
        routes.register(environment.servlets());
    }

    /**
     * Adds {@code GET /events/ws} (and its HTTP/2 form, {@code CONNECT}) on {@code from}'s hub to {@code routes} and
     * the WebSocket container to {@code context}, configured by {@code websocket}; publishes on the socket go to
     * {@code from}'s sink within its bounds; its metrics {@code events.websocket.*} in {@code metrics}; {@code from}'s
     * sweeper drops the sockets that stopped draining, ends those past their lifetime or credentials, and gives back
     * the places of upgraded sockets that never opened.
     */
    private static void register(EventRoutes routes, TransportBase from, WebSocketConfiguration websocket,
                                 MetricRegistry metrics, ServletContextHandler context) {
        EventsHttp http = from.http();
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
        from.sweeper().scheduleWithFixedDelay(() -> {
            try {
                meters.neverOpened.mark(sockets.sweep(System.nanoTime()));
            } catch (RuntimeException bug) {
                LOG.error("sweeping the sockets failed; the next sweep retries", bug); // thrown, it would end the sweeps
            }
        }, SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
        SocketJson json = new SocketJson(http.json().mapper());
        SocketPublishing publishing = new SocketPublishing(from.sink(), http.hub()::admitTopics, http.access(),
                http.json().mapper(), json, meters, new SocketPublishing.Limits(from.maxEventBytes(),
                from.publishTimeoutMs(), websocket.getMaxPublishesInFlight()));
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
