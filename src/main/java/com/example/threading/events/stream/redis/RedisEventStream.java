package com.example.threading.events.stream.redis;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.health.HealthCheck;
import com.example.threading.events.stream.Event;
import com.example.threading.events.stream.EventArchive;
import com.example.threading.events.stream.EventSink;
import com.example.threading.events.stream.EventSource;
import com.example.threading.events.stream.EventSubscriber;
import com.example.threading.events.stream.TickGate;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.Managed;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.UnblockType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Events on Redis Streams shared by every instance, one stream per topic ({@link TopicKeys}). {@link #publish} runs one
 * script ({@link StreamScripts#PUBLISH}: INCR the topic's counter, XADD with that number as the entry id) on a shared,
 * auto-reconnecting connection, so a topic's ids are whole numbers +1 across the cluster; the returned stage is the
 * script's reply. One {@link StreamReader} thread per instance, on its own connection, delivers every entry of the
 * topics the hub watches (those with polls on this instance) to the subscriber (the hub) in id order per topic, also
 * the ones this instance published: the hub sees one order per topic, the stream's.
 *
 * <p>Redis down: a publish fails at once while the connection is down (lettuce rejects commands when disconnected)
 * or after {@code commandTimeout}; the reader retries with backoff; the health check {@code events-stream} is
 * unhealthy until both connections work. The service starts also when Redis is down at start-up, unhealthy, and
 * recovers when Redis appears.
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>Start-up thread: {@link #register}, {@link #tickGate} and {@link #subscribe}, once each, before
 *       {@link #start}.</li>
 *   <li>Lifecycle thread: {@link #start} starts the reader thread (so everything set before happens-before the reader
 *       runs) and {@link #stop} stops and joins it, then closes the connections.</li>
 *   <li>Publishers, any threads, any number at once: {@link #publish} and {@link #after} read the volatile publish
 *       connection (lettuce connections are thread-safe) and never wait; their stages complete on a lettuce I/O thread.
 *       {@link #watch} and {@link #forget} only change the reader's concurrent positions (a watch may also send an
 *       asynchronous unblock).</li>
 *   <li>The reader thread: alone calls the subscriber, one event after another, and alone (re)makes the publish
 *       connection, writing it and the last problem through volatile fields.</li>
 *   <li>The health check and gauges, on admin threads: read that volatile state and the reader's; {@code readerThread}
 *       is a plain field written by {@code start}, which the server runs before it starts its connectors, so a check
 *       sees it.</li>
 * </ul>
 * {@code RedisStreamClusterTest} checks it with six publishers at once on two instances: every id once, and every
 * follower sees the events in order.
 */
public final class RedisEventStream implements EventSink, EventSource, EventArchive, Managed {

    private static final Logger LOG = LoggerFactory.getLogger(RedisEventStream.class);

    /** Name of the health check. */
    public static final String HEALTH_CHECK = "events-stream";

    private final RedisStreamConfiguration configuration;
    private final TopicKeys keys;
    private final RedisStreamMetrics metrics;
    private final StreamEntries entries;
    private final TopicCalls calls;
    private final ClientResources resources;
    private final RedisClient publishClient;
    private final RedisClient readerClient;
    private volatile StatefulRedisConnection<String, String> publishConnection;
    private volatile String publishProblem = "not connected yet";
    private volatile EventSubscriber subscriber;
    private final StreamReader reader;
    private volatile TickerLease tickerLease;
    private final MetricRegistry registry;
    private final String instanceId = ManagementFactory.getRuntimeMXBean().getName() + "/" + UUID.randomUUID();
    private Thread readerThread;

    private RedisEventStream(RedisStreamConfiguration configuration, ObjectMapper mapper,
                             MetricRegistry registry) {
        this.configuration = configuration;
        this.keys = new TopicKeys(configuration.getKey());
        this.registry = registry;
        this.metrics = new RedisStreamMetrics(registry);
        this.entries = new StreamEntries(mapper);
        this.calls = new TopicCalls(keys, mapper, metrics, configuration.getMaxLen(), StreamScripts.PUBLISH);
        Duration commandTimeout = Duration.ofMillis(configuration.getCommandTimeout().toMilliseconds());
        Duration maxDelay = Duration.ofMillis(configuration.getMaxReconnectDelay().toMilliseconds());
        this.resources = DefaultClientResources.builder()
                .ioThreadPoolSize(2)
                .computationThreadPoolSize(2)
                .reconnectDelay(Delay.exponential(Duration.ofMillis(StreamReader.FIRST_RECONNECT_DELAY_MS), maxDelay, 2,
                        TimeUnit.MILLISECONDS))
                .build();
        // Publishes: lettuce reconnects by itself and rejects commands while disconnected, so a publish fails at
        // once instead of queueing behind a dead connection.
        this.publishClient = client(commandTimeout, true);
        // The reader reconnects by itself (StreamReader), and its XREAD blocks for up to BLOCK_MS.
        this.readerClient = client(commandTimeout.plusMillis(StreamReader.BLOCK_MS), false);
        this.reader = new StreamReader(readerClient, keys, configuration.getMaxReconnectDelay().toMilliseconds(), entries,
                new ReaderHooks(event -> subscriber.accept(event), metrics, this::connectPublisherIfNeeded), this::unblock);
    }

    /**
     * Builds the stream for {@code configuration}, registers its lifecycle, health check {@value #HEALTH_CHECK}
     * and metrics {@code events.redis.*} with {@code environment}.
     */
    public static RedisEventStream register(Environment environment, RedisStreamConfiguration configuration) {
        RedisEventStream stream = new RedisEventStream(configuration, environment.getObjectMapper(),
                environment.metrics());
        environment.lifecycle().manage(stream);
        environment.healthChecks().register(HEALTH_CHECK, new HealthCheck() {
            @Override
            protected Result check() {
                String problem = stream.problem();
                return problem == null
                        ? Result.healthy("reading %d topic(s) of %s at %s", stream.watched(), configuration.getKey(), stream.where())
                        : Result.unhealthy("Redis at %s: %s", stream.where(), problem);
            }
        });
        environment.metrics().register("events.redis.reader.lag", (Gauge<Long>) stream::lag);
        environment.metrics().register("events.redis.reader.topics", (Gauge<Integer>) stream::watched);
        return stream;
    }

    private RedisClient client(Duration timeout, boolean autoReconnect) {
        RedisURI uri = RedisURI.create(configuration.getUri());
        uri.setTimeout(timeout);
        RedisClient client = RedisClient.create(resources, uri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(autoReconnect)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(timeout))
                .socketOptions(SocketOptions.builder().connectTimeout(Duration.ofMillis(
                        Math.max(1000, configuration.getCommandTimeout().toMilliseconds()))).build())
                .build());
        return client;
    }

    /**
     * The ticker's gate: this instance ticks only while it holds the cluster's ticker lease ({@code <key>:ticker}),
     * so N instances make one tick per period. Registers the gauge {@code events.tick.leader} (1 while leading).
     */
    public TickGate tickGate(long periodMs) {
        TickerLease lease = new TickerLease(() -> {
            StatefulRedisConnection<String, String> connection = publishConnection;
            return connection == null || !connection.isOpen() ? null : connection.async();
        }, keys.tickerLease(), instanceId, periodMs);
        registry.register("events.tick.leader", (Gauge<Integer>) lease::leader);
        tickerLease = lease;
        return lease;
    }

    @Override
    public void subscribe(EventSubscriber subscriber) {
        this.subscriber = Objects.requireNonNull(subscriber, "subscriber");
    }

    @Override
    public void watch(String topic) {
        reader.watch(topic);
    }

    @Override
    public void forget(String topic, long lastIdSeen) {
        reader.forget(topic); // the numbering is Redis's: it stays
    }

    @Override
    public void start() {
        Objects.requireNonNull(subscriber, "subscribe before start");
        readerThread = new Thread(reader, "events-redis-reader");
        readerThread.setDaemon(true);
        readerThread.start();
    }

    @Override
    public void stop() throws InterruptedException {
        if (readerThread != null) {
            reader.stop();
            readerThread.interrupt();
            readerThread.join(5_000);
        }
        TickerLease lease = tickerLease;
        if (lease != null) {
            lease.release(); // the ticker stopped before the stream (reverse start order): another instance ticks now
        }
        StatefulRedisConnection<String, String> connection = publishConnection;
        if (connection != null) {
            connection.close();
        }
        publishClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        readerClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }

    @Override
    public CompletionStage<Event> publish(String topic, JsonNode data) {
        return calls.publish(commands(), where(), publishProblem, reader.positions(), topic, data);
    }

    @Override
    public CompletionStage<Read> after(String topic, long cursor, int limit) {
        return calls.after(commands(), where(), publishProblem, reader.positions(), topic, cursor, limit);
    }

    /** The publish connection's commands; null before the first connect. */
    private RedisAsyncCommands<String, String> commands() {
        StatefulRedisConnection<String, String> connection = publishConnection;
        return connection == null ? null : connection.async();
    }

    /** Events known to exist on the watched topics and not yet delivered to the hub (0 when caught up). */
    long lag() {
        return reader.lag();
    }

    /** Topics this instance reads. */
    int watched() {
        return reader.watched();
    }

    /** Asks Redis to end the reader's blocked XREAD (a topic was added); asynchronous, on the publish connection. */
    private void unblock(long readerClientId) {
        StatefulRedisConnection<String, String> connection = publishConnection;
        if (connection != null && connection.isOpen()) {
            connection.async().clientUnblock(readerClientId, UnblockType.TIMEOUT);
        }
    }

    /** Why the stream does not work right now; null when reader and publisher are connected. */
    String problem() {
        String readerProblem = readerThread == null ? "not started" : reader.problem();
        if (readerProblem != null) {
            return "reader: " + readerProblem;
        }
        StatefulRedisConnection<String, String> connection = publishConnection;
        if (connection == null) {
            return "publisher: " + publishProblem;
        }
        return connection.isOpen() ? null : "publisher: connection lost, reconnecting";
    }

    private String where() {
        RedisURI uri = RedisURI.create(configuration.getUri());
        return uri.getHost() + ":" + uri.getPort();
    }

    /** On the reader thread: makes the publish connection if there is none yet (afterwards lettuce keeps it up). */
    private void connectPublisherIfNeeded() {
        if (publishConnection != null) {
            return;
        }
        try {
            publishConnection = publishClient.connect();
            LOG.info("publishing to the topics' streams ({}:{{topic}}) at {}", configuration.getKey(), where());
        } catch (RuntimeException failure) {
            publishProblem = failure.toString();
        }
    }
}
