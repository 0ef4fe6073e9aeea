package com.example.threading;

import com.example.threading.admission.AdmissionBundle;
import com.example.threading.admission.ThreadBound;
import com.example.threading.client.FanoutBundle;
import com.example.threading.context.RequestContextBundle;
import com.example.threading.errors.JsonErrorsBundle;
import com.example.threading.events.EventsBundle;
import com.example.threading.events.access.jwt.JwtAccessBundle;
import com.example.threading.events.longpoll.LongPollTransport;
import com.example.threading.events.publish.PublishEndpoints;
import com.example.threading.events.sse.SseBundle;
import com.example.threading.events.stream.redis.RedisEventStream;
import com.example.threading.events.stream.redis.RedisEventStreamBundle;
import com.example.threading.events.websocket.WebSocketBundle;
import com.example.threading.health.ReadinessBundle;
import com.example.threading.jetty.JettyBundle;
import com.example.threading.jetty.virtual.ServerVirtualThreadsBundle;
import com.example.threading.live.LiveBundle;
import com.example.threading.metrics.PrometheusBundle;
import com.example.threading.requestlog.RequestLogBundle;
import com.example.threading.threads.ThreadsBundle;
import com.example.threading.work.WorkBundle;
import io.dropwizard.configuration.EnvironmentVariableSubstitutor;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.core.Application;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;

/**
 * Every threading pattern in one Dropwizard service: one bundle per pattern, each from its own package, added in
 * {@link #initialize}; Dropwizard runs them in that order.
 */
public final class ThreadingApplication extends Application<ThreadingConfiguration> {

    /** Starts the service, e.g. {@code server config.yml}. */
    public static void main(String[] args) throws Exception {
        new ThreadingApplication().run(args);
    }

    @Override
    public String getName() {
        return "threading-reference";
    }

    @Override
    public void initialize(Bootstrap<ThreadingConfiguration> bootstrap) {
        // ${VAR:-default} in config.yml: every knob can be set from the environment (Docker, CI).
        bootstrap.setConfigurationSourceProvider(new SubstitutingSourceProvider(
                bootstrap.getConfigurationSourceProvider(), new EnvironmentVariableSubstitutor(false)));
        // First: refuses to start (JDK 17, or Dropwizard's own flag) before any pattern has built a pool.
        bootstrap.addBundle(new ServerVirtualThreadsBundle<>(ThreadingConfiguration::getServerVirtualThreads));
        bootstrap.addBundle(new JsonErrorsBundle());
        bootstrap.addBundle(new RequestLogBundle());
        bootstrap.addBundle(new WorkBundle<>(ThreadingConfiguration::getWork));
        // Its downstream calls carry the request's context; their spans are recorded where the context bundle decides.
        RequestContextBundle<ThreadingConfiguration> context = new RequestContextBundle<>(ThreadingConfiguration::getContext);
        bootstrap.addBundle(new FanoutBundle<>(ThreadingConfiguration::getClient, context::openTelemetry));
        bootstrap.addBundle(new RedisEventStreamBundle());
        // events.auth.type: jwt — who may read and publish which topic, from a JWT's claims (docs/longpoll-auth.md).
        bootstrap.addBundle(new JwtAccessBundle());
        // The long-poll and publishing; Server-Sent Events and WebSocket on top of it, each a bundle of its own.
        EventsBundle<ThreadingConfiguration> events = new EventsBundle<>(ThreadingConfiguration::getEvents);
        bootstrap.addBundle(events);
        bootstrap.addBundle(new SseBundle<>(events::base, ThreadingConfiguration::getSse));
        bootstrap.addBundle(new WebSocketBundle<>(events::base, ThreadingConfiguration::getWebsocket));
        bootstrap.addBundle(new JettyBundle<>(ThreadingConfiguration::getJetty));
        bootstrap.addBundle(new PrometheusBundle());
        // GET /live on the admin port: the threads, queues and refusals charted live (docs/live.md).
        bootstrap.addBundle(new LiveBundle());
        bootstrap.addBundle(new ThreadsBundle<>(ThreadingConfiguration::getThreads));
        // GET /ready on the application port, for a load balancer: the shared stream's Redis, not load (docs/operations.md).
        bootstrap.addBundle(new ReadinessBundle(RedisEventStream.HEALTH_CHECK, "deadlocks"));
        // Long-polls, publishes (one event or a batch: a trickled body would hold a place until its deadline), event
        // streams and sockets have their own bounds (events.maxParked, events.maxPublishing, sse.maxStreams,
        // websocket.maxSockets): admission does not count them; nor does it count the balancer's readiness probe,
        // so a busy instance stays in rotation.
        bootstrap.addBundle(new AdmissionBundle<>(ThreadingConfiguration::getAdmission, ThreadingApplication::threadBound,
                LongPollTransport.PATH, LongPollTransport.BLOCKING_PATH, PublishEndpoints.BATCH_PATH, SseBundle.PATH,
                WebSocketBundle.PATH, ReadinessBundle.PATH));
        // Last, so that its handler runs first: every request's id, trace and MDC, 503s of admission control included.
        bootstrap.addBundle(context);
    }

    @Override
    public void run(ThreadingConfiguration configuration, Environment environment) {
        // Everything is registered by the bundles.
    }

    /**
     * How many requests the server runs at once, which admission's default limit is derived from: the virtual-thread
     * bound when requests run on virtual threads ({@code server.maxThreads} then sizes only Jetty's platform pool).
     */
    private static int threadBound(ThreadingConfiguration configuration) {
        return configuration.getServerVirtualThreads().isEnabled()
                ? configuration.getServerVirtualThreads().getMaxConcurrent()
                : ThreadBound.platformThreads(configuration.getServerFactory());
    }
}
