package com.example.threading.events.stream.redis;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.AdminMetrics;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One service instance in this JVM (the real config.yml, random ports) on a Redis event stream: a
 * {@link DropwizardTestSupport} with {@code events.stream.type: redis}, plus the calls the Redis tests make on it.
 *
 * <p>Thread-safety: start and stop on the test thread; {@link #url}, {@link #publish} and {@link #admin} from any
 * thread once started.
 */
final class ServiceInstance implements AutoCloseable {

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final DropwizardTestSupport<ThreadingConfiguration> support;
    private final LoopbackHttp http;
    private AdminMetrics admin;

    /**
     * An instance on stream {@code key} of the Redis at {@code redisUri}, ticker off unless {@code extra} (pairs of
     * config path and value) says otherwise.
     */
    ServiceInstance(LoopbackHttp http, String redisUri, String key, String... extra) {
        // Each instance reads its overrides from system properties under its own prefix: with the shared "dw."
        // prefix, stopping two instances in start order restores the first one's values for every later test.
        String prefix = "dw-redis-" + INSTANCES.incrementAndGet();
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("server.applicationConnectors[0].bindHost", "127.0.0.1");
        settings.put("events.tickPeriod", "0");
        settings.put("events.stream.type", "redis");
        settings.put("events.stream.redis.uri", redisUri);
        settings.put("events.stream.redis.key", key);
        for (int i = 0; i + 1 < extra.length; i += 2) {
            settings.put(extra[i], extra[i + 1]);
        }
        List<ConfigOverride> overrides = new ArrayList<>();
        overrides.add(ConfigOverride.randomPorts(prefix));
        settings.forEach((path, value) -> overrides.add(ConfigOverride.config(prefix, path, value)));
        this.support = new DropwizardTestSupport<>(ThreadingApplication.class, "config.yml", prefix,
                overrides.toArray(ConfigOverride[]::new));
        this.http = http;
    }

    /** Starts the service (it starts also when Redis is down). */
    ServiceInstance start() throws Exception {
        support.before();
        admin = new AdminMetrics(http, support.getAdminPort());
        return this;
    }

    /** Starts the service and waits until its health check {@code events-stream} is healthy. */
    ServiceInstance startHealthy() throws Exception {
        start();
        awaitHealthy(true, Duration.ofSeconds(20));
        return this;
    }

    /** Waits for {@code events-stream} to report {@code healthy}. */
    void awaitHealthy(boolean healthy, Duration bound) {
        Await.until(() -> admin.healthy(RedisEventStream.HEALTH_CHECK) == healthy, bound,
                "events-stream " + (healthy ? "healthy" : "unhealthy") + " on port " + support.getAdminPort());
    }

    /** {@code http://127.0.0.1:<app port><pathAndQuery>}. */
    String url(String pathAndQuery) {
        return LoopbackHttp.url(support.getLocalPort(), pathAndQuery);
    }

    /** POST /events with {@code json}. */
    Answer publish(String json) {
        return http.postJson(url("/events"), json);
    }

    /** The hub's newest id ({@code events.last-id}). */
    long lastId() {
        return admin.gauge("events.last-id");
    }

    AdminMetrics admin() {
        return admin;
    }

    DropwizardTestSupport<ThreadingConfiguration> support() {
        return support;
    }

    @Override
    public void close() {
        support.after();
    }
}
