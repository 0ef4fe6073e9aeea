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
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.cluster.pubsub.api.async.RedisClusterPubSubAsyncCommands;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import io.lettuce.core.event.connection.ConnectionDeactivatedEvent;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;

/**
 * Events on a Redis Cluster ({@code events.stream.redis.cluster: true}): the same keys and scripts as on one Redis
 * ({@link TopicKeys}: each topic's stream and counter share a hash tag, so a topic lives on one master and topics spread
 * over the masters), published through a cluster connection that sends each script to the master of its topic's slot;
 * the publish script also announces the event on the topic's shard channel, and one {@link ShardedTopicReader} per
 * instance delivers the announcements of the topics the hub watches, reading the streams to fill any gap.
 *
 * <p>A master down: publishes and history reads of its topics fail at once (lettuce rejects commands for a node while
 * its connection is down) or after {@code commandTimeout}: {@code 503}; topics on the other masters go on. The health
 * check {@code events-stream} stays healthy while at least one master answers, naming the unreachable ones (every
 * instance sees the same masters: failing readiness would take every instance out of the balancer for a fault that
 * concerns only some topics); {@code events.redis.cluster.masters.unreachable} counts them for alerts. When the master
 * is back, lettuce reconnects and subscribes again, and the reader reads each of its topics on from its last id.
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>Start-up thread: {@link #register}, {@link #tickGate} and {@link #subscribe}, once each, before
 *       {@link #start}.</li>
 *   <li>Lifecycle thread: {@link #start} subscribes to lettuce's connection events and starts the reader thread;
 *       {@link #stop} stops and joins it, then closes the connections.</li>
 *   <li>Any threads, any number at once: {@link #watch}, {@link #forget}, {@link #publish} and {@link #after} read the
 *       volatile connections (lettuce connections are thread-safe; null until the reader thread could connect) and
 *       never wait; their stages complete on lettuce I/O threads.</li>
 *   <li>The reader thread: alone calls the subscriber, one event after another; each round it (re)makes the
 *       connections, writing them through volatile fields, and probes the masters ({@link MasterProbes}), whose
 *       answers complete on lettuce I/O threads.</li>
 *   <li>Lettuce's connection events, on lettuce's threads: on a node's reconnection, the node's watched topics are
 *       subscribed again through the reader (asynchronous subscriptions only).</li>
 *   <li>The health check and gauges, on admin threads: read that volatile and concurrent state, each value current, not
 *       one snapshot; {@code readerThread} is a plain field written by {@code start}, which the server runs before it
 *       starts its connectors, so a check sees it.</li>
 * </ul>
 * {@code RedisClusterFaultTest} checks it on a real cluster: a master stopped and started again, and subscriptions cut
 * while events are published, with nothing lost.
 */
public final class RedisClusterEventStream implements EventSink, EventSource, EventArchive, Managed {

    private static final Logger LOG = LoggerFactory.getLogger(RedisClusterEventStream.class);

    /** How often lettuce re-reads the cluster's slot map besides its adaptive triggers (MOVED, reconnects). */
    private static final Duration TOPOLOGY_REFRESH = Duration.ofSeconds(30);

    private final RedisStreamConfiguration configuration;
    private final TopicKeys keys;
    private final TopicCalls calls;
    private final MetricRegistry registry;
    private final RedisStreamMetrics metrics;
    private final ClientResources resources;
    private final RedisClusterClient commandClient;
    private final RedisClusterClient pubSubClient;
    private final ShardedTopicReader reader;
    private final Duration commandTimeout;
    private final String instanceId = ManagementFactory.getRuntimeMXBean().getName() + "/" + UUID.randomUUID();
    private final MasterProbes probes;
    private volatile StatefulRedisClusterConnection<String, String> commandConnection;
    private volatile StatefulRedisClusterPubSubConnection<String, String> pubSubConnection;
    private volatile String connectProblem = "not connected yet";
    private volatile EventSubscriber subscriber;
    private volatile TickerLease tickerLease;
    private Thread readerThread;
    private Disposable reconnects;

    private RedisClusterEventStream(RedisStreamConfiguration configuration, ObjectMapper mapper, MetricRegistry registry) {
        this.configuration = configuration;
        this.keys = new TopicKeys(configuration.getKey());
        this.registry = registry;
        this.metrics = new RedisStreamMetrics(registry);
        this.calls = new TopicCalls(keys, mapper, metrics, configuration.getMaxLen(), StreamScripts.PUBLISH_AND_ANNOUNCE);
        this.commandTimeout = Duration.ofMillis(configuration.getCommandTimeout().toMilliseconds());
        this.probes = new MasterProbes(commandTimeout.toMillis());
        Duration maxDelay = Duration.ofMillis(configuration.getMaxReconnectDelay().toMilliseconds());
        this.resources = DefaultClientResources.builder()
                .ioThreadPoolSize(2)
                .computationThreadPoolSize(2)
                .reconnectDelay(Delay.exponential(Duration.ofMillis(100), maxDelay, 2, TimeUnit.MILLISECONDS))
                .build();
        List<RedisURI> seeds = configuration.getUris().stream().map(RedisURI::create).toList();
        // Commands are rejected while their node's connection is down, so a publish to a stopped master fails at once.
        this.commandClient = client(seeds, ClientOptions.DisconnectedBehavior.REJECT_COMMANDS, true);
        // Subscriptions wait for their node to come back (lettuce then sends them, and re-subscribes the others).
        this.pubSubClient = client(seeds, ClientOptions.DisconnectedBehavior.ACCEPT_COMMANDS, false);
        this.reader = new ShardedTopicReader(calls, this::commands, this::pubSubCommands,
                new ReaderHooks(event -> subscriber.accept(event), metrics, this::connectAndProbe), commandTimeout.toMillis());
    }

    /**
     * Counts lost node connections ({@code events.redis.reader.reconnects}, as the single-Redis reader counts its own);
     * when a connection to a node is made again, subscribes again to the watched topics that node holds.
     */
    private void onConnectionEvent(io.lettuce.core.event.Event event) {
        if (event instanceof ConnectionDeactivatedEvent) {
            metrics.reconnects.mark();
        }
        if (event instanceof ConnectionActivatedEvent activated && activated.remoteAddress() instanceof InetSocketAddress node) {
            StatefulRedisClusterPubSubConnection<String, String> connection = pubSubConnection;
            if (connection != null) {
                reader.subscribeAgain(topic -> {
                    RedisClusterNode holder = connection.getPartitions().getPartitionBySlot(SlotHash.getSlot(keys.stream(topic)));
                    return holder != null && holder.getUri().getPort() == node.getPort();
                });
            }
        }
    }

    /**
     * Builds the stream for {@code configuration} (a cluster's seeds), registers its lifecycle, health check
     * {@value RedisEventStream#HEALTH_CHECK} and metrics {@code events.redis.*} with {@code environment}.
     */
    public static RedisClusterEventStream register(Environment environment, RedisStreamConfiguration configuration) {
        RedisClusterEventStream stream = new RedisClusterEventStream(configuration, environment.getObjectMapper(),
                environment.metrics());
        environment.lifecycle().manage(stream);
        environment.healthChecks().register(RedisEventStream.HEALTH_CHECK, new HealthCheck() {
            @Override
            protected Result check() {
                return stream.health();
            }
        });
        environment.metrics().register("events.redis.reader.lag", (Gauge<Long>) stream.reader.positions()::lag);
        environment.metrics().register("events.redis.reader.topics", (Gauge<Integer>) stream.reader.positions()::watched);
        environment.metrics().register("events.redis.cluster.masters", (Gauge<Integer>) stream.probes::masters);
        environment.metrics().register("events.redis.cluster.masters.unreachable",
                (Gauge<Integer>) stream.probes::unreachableCount);
        return stream;
    }

    private RedisClusterClient client(List<RedisURI> seeds, ClientOptions.DisconnectedBehavior disconnected, boolean timeouts) {
        seeds.forEach(seed -> seed.setTimeout(commandTimeout));
        RedisClusterClient client = RedisClusterClient.create(resources, seeds);
        client.setOptions(ClusterClientOptions.builder()
                .disconnectedBehavior(disconnected)
                .timeoutOptions(timeouts ? TimeoutOptions.enabled(commandTimeout) : TimeoutOptions.create())
                .socketOptions(SocketOptions.builder().connectTimeout(Duration.ofMillis(Math.max(1000, commandTimeout.toMillis()))).build())
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enablePeriodicRefresh(TOPOLOGY_REFRESH)
                        .enableAllAdaptiveRefreshTriggers()
                        .build())
                .build());
        return client;
    }

    /** The ticker's gate: one lease ({@code <key>:ticker}) for every instance, on the master of its slot. */
    public TickGate tickGate(long periodMs) {
        TickerLease lease = new TickerLease(this::commands, keys.tickerLease(), instanceId, periodMs);
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
        reconnects = resources.eventBus().get().subscribe(this::onConnectionEvent);
        readerThread = new Thread(reader, "events-redis-cluster-reader");
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
        if (reconnects != null) {
            reconnects.dispose();
        }
        TickerLease lease = tickerLease;
        if (lease != null) {
            lease.release();
        }
        StatefulRedisClusterPubSubConnection<String, String> pubSub = pubSubConnection;
        if (pubSub != null) {
            pubSub.close();
        }
        StatefulRedisClusterConnection<String, String> connection = commandConnection;
        if (connection != null) {
            connection.close();
        }
        commandClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        pubSubClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }

    @Override
    public CompletionStage<Event> publish(String topic, JsonNode data) {
        return calls.publish(commands(), where(), connectProblem, reader.positions(), topic, data);
    }

    @Override
    public CompletionStage<Read> after(String topic, long cursor, int limit) {
        return calls.after(commands(), where(), connectProblem, reader.positions(), topic, cursor, limit);
    }

    private RedisAdvancedClusterAsyncCommands<String, String> commands() {
        StatefulRedisClusterConnection<String, String> connection = commandConnection;
        return connection == null ? null : connection.async();
    }

    private RedisClusterPubSubAsyncCommands<String, String> pubSubCommands() {
        StatefulRedisClusterPubSubConnection<String, String> connection = pubSubConnection;
        return connection == null ? null : connection.async();
    }

    /** What the health check says: see the class comment. */
    HealthCheck.Result health() {
        if (readerThread == null) {
            return HealthCheck.Result.unhealthy("Redis Cluster at %s: not started", where());
        }
        if (commandConnection == null || pubSubConnection == null) {
            return HealthCheck.Result.unhealthy("Redis Cluster at %s: %s (since %s)", where(), connectProblem, probes.downSince());
        }
        Map<String, String> unreachable = probes.unreachable();
        int known = probes.masters();
        if (known == 0 || unreachable.size() >= known) {
            return HealthCheck.Result.unhealthy("Redis Cluster at %s: no master answers (since %s): %s", where(),
                    probes.downSince(), unreachable);
        }
        if (!unreachable.isEmpty()) {
            return HealthCheck.Result.healthy("DEGRADED: %d of %d masters unreachable, publishes to their topics answer 503: "
                    + "%s; reading %d topic(s) of %s", unreachable.size(), known, unreachable, reader.positions().watched(), configuration.getKey());
        }
        return HealthCheck.Result.healthy("reading %d topic(s) of %s on %d masters at %s", reader.positions().watched(), configuration.getKey(),
                known, where());
    }

    private String where() {
        return String.join(",", configuration.getUris());
    }

    /**
     * On the reader thread, every round: makes the connections if there are none yet (afterwards lettuce keeps them
     * up), then sends a PING to every master through the command connection (also making its node connection, so the
     * first publish to it is not refused as "not connected"), and records which did not answer.
     */
    private void connectAndProbe() {
        if (commandConnection == null || pubSubConnection == null) {
            try {
                if (commandConnection == null) {
                    commandConnection = commandClient.connect();
                }
                StatefulRedisClusterPubSubConnection<String, String> pubSub = pubSubClient.connectPubSub();
                pubSub.addListener(reader.listener());
                pubSubConnection = pubSub;
                reader.subscribeAll();
                LOG.info("publishing to and reading the topics ({}:{{topic}}) of the Redis Cluster at {}", configuration.getKey(), where());
            } catch (RuntimeException failure) {
                connectProblem = failure.toString();
                return;
            }
        }
        probes.probe(commandConnection);
    }
}
