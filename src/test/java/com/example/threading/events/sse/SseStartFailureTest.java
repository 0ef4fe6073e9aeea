package com.example.threading.events.sse;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.events.access.OpenTopicAccess;
import com.example.threading.events.access.PublishAccess;
import com.example.threading.events.http.AccessGate;
import com.example.threading.events.http.EventsJson;
import com.example.threading.events.http.JsonResponses;
import com.example.threading.events.http.PollLimits;
import com.example.threading.events.hub.EventHub;
import com.example.threading.events.hub.HubMetrics;
import com.example.threading.events.hub.Hubs;
import com.example.threading.testing.LoopbackHttp;
import io.dropwizard.jackson.Jackson;
import java.time.Clock;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A stream that cannot start (here: the servlet is mapped without async support, so {@code startAsync} throws) gives
 * its place back: however many such requests come, the open count stays 0 and no place is lost.
 */
class SseStartFailureTest {

    private Server server;
    private LoopbackHttp http;

    @AfterEach
    void stop() throws Exception {
        if (http != null) {
            http.close();
        }
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void aStreamThatCannotStartGivesItsPlaceBack() throws Exception {
        JsonResponses json = new JsonResponses(Jackson.newObjectMapper());
        MetricRegistry metrics = new MetricRegistry();
        EventHub hub = Hubs.hub(16, 100, Runnable::run, Jackson.newObjectMapper(), new HubMetrics(metrics), null, System::nanoTime);
        SseStreams streams = new SseStreams(2, 1_000, Long.MAX_VALUE / 4, 5_000_000_000L);
        PollLimits limits = new PollLimits(5, 10, 4, json);
        AccessGate access = new AccessGate(new OpenTopicAccess(new PublishAccess(null)), limits, 1, metrics,
                Clock.systemUTC());
        SseServlet servlet = new SseServlet(new SseStream.Shared(hub, json, new EventsJson<>(json::bytes), streams,
                new SseMetrics(metrics), 1_000), limits, access, 65_536, 1, System::nanoTime);
        server = new Server(new QueuedThreadPool(8, 2));
        ServerConnector connector = new ServerConnector(server, 1, 1);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        ServletHolder holder = new ServletHolder(servlet);
        holder.setAsyncSupported(false);
        context.addServlet(holder, SseBundle.PATH);
        server.setHandler(context);
        server.start();
        http = new LoopbackHttp();

        for (int attempt = 0; attempt < 5; attempt++) { // more attempts than places: a leak would show as a 503
            LoopbackHttp.Answer answer = http.get(LoopbackHttp.url(connector.getLocalPort(), SseBundle.PATH));
            assertThat(answer.status()).as("startAsync failed: Jetty's error, not a refusal for want of places")
                    .isEqualTo(500);
        }
        assertThat(streams.tryOpen()).isTrue();
        assertThat(streams.tryOpen()).isTrue();
    }
}
