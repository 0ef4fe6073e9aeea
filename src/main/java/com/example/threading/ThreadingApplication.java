package com.example.threading;

import com.example.threading.admission.AdmissionControl;
import com.example.threading.admission.ThreadBound;
import com.example.threading.client.ClientFanout;
import com.example.threading.errors.JsonErrors;
import com.example.threading.health.ReadinessBundle;
import com.example.threading.jetty.ExecutionStrategies;
import com.example.threading.jetty.JettyThreadPoolHealthCheck;
import com.example.threading.jetty.virtual.ServerVirtualThreads;
import com.example.threading.longpoll.LongPoll;
import com.example.threading.longpoll.redis.RedisEventStream;
import com.example.threading.metrics.PrometheusEndpoint;
import com.example.threading.servlet.CompleteAsyncOnFailedWrite;
import com.example.threading.work.WorkPatterns;
import io.dropwizard.configuration.EnvironmentVariableSubstitutor;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.core.Application;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;

/**
 * Wires every threading pattern into one Dropwizard service; each pattern registers itself from its own
 * package.
 *
 * <p>Thread-safety: used by the start-up thread only: Dropwizard calls {@code initialize} and then {@code run}
 * once, before the server takes requests; the class holds no state of its own.
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
        // GET /ready on the application port, for a load balancer: the shared stream's Redis, not load (docs/operations.md).
        bootstrap.addBundle(new ReadinessBundle(RedisEventStream.HEALTH_CHECK, "deadlocks"));
    }

    @Override
    public void run(ThreadingConfiguration configuration, Environment environment) {
        // First: refuses to start (JDK 17, or Dropwizard's own flag) before any pattern has built a pool.
        ServerVirtualThreads.register(environment, configuration.getServerVirtualThreads(), configuration.getServerFactory());
        JsonErrors.register(environment);
        // The Jersey endpoints that answer from a resumed AsyncResponse; the long-poll servlet completes its own.
        environment.servlets().addFilter("complete-async-on-failed-write", new CompleteAsyncOnFailedWrite())
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, WorkPatterns.URL_PATTERN, ClientFanout.PATH);
        new WorkPatterns(configuration.getWork()).register(environment);
        new ClientFanout(configuration.getClient()).register(environment);
        new LongPoll(configuration.getEvents()).register(environment);
        JettyThreadPoolHealthCheck.register(environment);
        ExecutionStrategies.register(environment, configuration.getJetty());
        PrometheusEndpoint.register(environment);
        AdmissionControl.register(environment, configuration.getAdmission(), threadBound(configuration), LongPoll.PATH, LongPoll.BLOCKING_PATH,
                ReadinessBundle.PATH);
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
