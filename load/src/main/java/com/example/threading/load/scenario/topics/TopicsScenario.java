package com.example.threading.load.scenario.topics;

import com.example.threading.load.engine.jvm.GcPauses;
import com.example.threading.load.engine.jvm.ServerMetrics;
import com.example.threading.load.engine.traffic.TopicsTraffic;
import com.example.threading.load.report.Report;
import com.example.threading.load.scenario.ScenarioCommand;
import com.example.threading.load.service.CpuClock;
import com.example.threading.load.service.RedisClusterProcesses;
import com.example.threading.load.service.RedisServerProcess;
import com.example.threading.load.service.Target;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * CometD's benchmark shape on the long-poll's topics: chat rooms as topics, each client one poll of all its rooms, a
 * fixed message rate; in-process and on Redis. Does every member get every message of its rooms once and in order,
 * how many deliveries per second, at what publish → read latency?
 */
@Command(name = "topics",
        description = "CometD's benchmark shape on topics (rooms): per-room lost / duplicated / out-of-order messages, "
                + "messages in/s, deliveries/s, publish -> read latency, server and tool CPU; in-process and on Redis.")
public final class TopicsScenario extends ScenarioCommand {

    /** The JDK on which this tool's clients were measured not to dominate the latency they measure (JDK 17's do). */
    static final int MEASURING_JDK = 25;

    @Option(names = "--clients", defaultValue = "1000", description = "Clients, each holding one poll of all its rooms (default: ${DEFAULT-VALUE})")
    int clients;

    @Option(names = "--rooms", defaultValue = "100", description = "Rooms, one topic each (default: ${DEFAULT-VALUE})")
    int rooms;

    @Option(names = "--rooms-per-client", defaultValue = "10", description = "Rooms each client is in (default: ${DEFAULT-VALUE})")
    int roomsPerClient;

    @Option(names = "--message-bytes", defaultValue = "50", description = "Size of each message's JSON (default: ${DEFAULT-VALUE})")
    int messageBytes;

    @Option(names = "--rate", defaultValue = "783", description = "Messages published per second, in batches of --batch-size, round-robin over the instances (default: ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--batch-size", defaultValue = "10",
            description = "Messages published at the same instant, to rooms drawn with a fixed seed, as CometD's benchmark sends a batch "
                    + "(1: one message at a time, evenly spaced, round-robin over the rooms) (default: ${DEFAULT-VALUE})")
    int batchSize;

    @Option(names = "--publish", defaultValue = "batch",
            description = "How a batch is sent: batch (its messages in one POST /events/batch, as CometD's benchmark sends a batch in "
                    + "one request), each (one POST /events per message) or socket (with --transport ws: each message a publish on a "
                    + "member's socket, the members taking turns by batch, as CometD's clients publish on theirs) (default: ${DEFAULT-VALUE})")
    String publish;

    @Option(names = "--transport", defaultValue = "long-poll",
            description = "How each client reads its rooms: long-poll (one GET /events of all its rooms at a time) or ws (one WebSocket, "
                    + "GET /events/ws, of all its rooms, reconnected from its last position when the server ends it); see --publish "
                    + "for how messages are sent (default: ${DEFAULT-VALUE})")
    String transport;

    @Option(names = "--duration", defaultValue = "30s", description = "Publishing time per phase (default: ${DEFAULT-VALUE})")
    Duration duration;

    @Option(names = "--warmup", defaultValue = "10s",
            description = "Traffic of the same shape on other rooms before each phase's measured run, not counted: fresh JVMs compile "
                    + "their hot code meanwhile (0s: none) (default: ${DEFAULT-VALUE})")
    Duration warmup;

    @Option(names = "--poll-timeout", defaultValue = "10", description = "timeout=<seconds> of each poll (default: ${DEFAULT-VALUE})")
    int pollTimeout;

    @Option(names = "--streams", split = ",", defaultValue = "in-process,redis,redis-cluster",
            description = "Phases: in-process (one instance), redis (--instances on one Redis), redis-cluster (--instances on a "
                    + "Redis Cluster of --masters masters, Redis 7) (default: ${DEFAULT-VALUE})")
    List<String> streams;

    @Option(names = "--instances", defaultValue = "2", description = "Instances in the redis phases; clients and publishes spread over them (default: ${DEFAULT-VALUE})")
    int instances;

    @Option(names = "--masters", defaultValue = "3", description = "Masters of the redis-cluster phase's cluster, started from redis-server on the PATH (default: ${DEFAULT-VALUE})")
    int masters;

    @Option(names = "--redis-uri", description = "A running loopback Redis (>= 6.2) instead of starting redis-server from the PATH")
    URI redisUri;

    /** A run with this scenario's defaults, filled in by picocli. */
    public TopicsScenario() {
        super(Duration.ofSeconds(600));
    }

    @Override
    protected void run(Report report) throws Exception {
        if (target().runningService().isPresent()) {
            throw new IllegalArgumentException("topics starts its own instances (fresh topics, and Redis for several); --url is not supported");
        }
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("--warmup must be 0s or more, not " + warmup);
        }
        TopicsTraffic.Transport reading = TopicsTraffic.Transport.named(transport);
        TopicsTraffic.Publishing publishing = TopicsTraffic.Publishing.named(publish);
        if (publishing == TopicsTraffic.Publishing.SOCKET && reading != TopicsTraffic.Transport.WS) {
            throw new IllegalArgumentException("--publish socket publishes on the members' sockets: it needs --transport ws");
        }
        for (String stream : streams) {
            if (!List.of("in-process", "redis", "redis-cluster").contains(stream)) {
                throw new IllegalArgumentException("--streams takes in-process, redis and redis-cluster, not " + stream);
            }
        }
        report.configure("clients", clients).configure("rooms", rooms).configure("rooms per client", roomsPerClient)
                .configure("message bytes", messageBytes).configure("publish rate /s", rate).configure("batch size", batchSize)
                .configure("publish", publishing.described()).configure("transport", reading.label())
                .configure("duration per phase", duration).configure("warm-up per phase", warmup)
                .configure("poll timeout s", pollTimeout).configure("streams", String.join(",", streams)).configure("instances (redis)", instances)
                .configure("masters (redis-cluster)", masters);
        report.summary(clients + " clients, each in " + roomsPerClient + " of " + rooms + " rooms (topics), "
                + (reading == TopicsTraffic.Transport.WS ? "hold one WebSocket (GET /events/ws) of all their rooms, reopened from its last "
                + "position when the server ends it, while " : "hold one long poll of all their rooms with their cursors and poll again "
                + "on each answer, while ") + Report.num(rate) + " messages/s of "
                + messageBytes + " bytes are published " + (batchSize == 1 ? "one at a time, round-robin over the rooms"
                : "in batches of " + batchSize + " at the same instant, to rooms drawn with a fixed seed, "
                + switch (publishing) {
                    case BATCH -> "each batch in one request";
                    case EACH -> "each message in its own request";
                    case SOCKET -> "each message a publish on a member's socket";
                }) + ", for " + duration.toSeconds() + " s per phase"
                + " (CometD's benchmark shape; its published figures: 783 messages/s in, 78,211 deliveries/s out, p50 20 ms, p99 150 ms). "
                + "Per client and room: lost, duplicated and out-of-order messages (goal: 0). Latency: from a publish's intended "
                + "send time to each member's read of the " + (reading == TopicsTraffic.Transport.WS ? "event's message." : "answer."));
        if (Runtime.version().feature() < MEASURING_JDK) {
            // Measured 2026-11-27: the same service on JDK 17 with this tool on JDK 17, p50 351 ms at 150 messages/s;
            // with this tool on JDK 25, p50 12 ms.
            report.note("this tool runs on JDK " + Runtime.version().feature() + ": its clients (the JDK's HttpClient) then "
                    + "add most of the latency measured here" + (reading == TopicsTraffic.Transport.WS ? " over long polls (over ws the "
                    + "members are Jetty's WebSocket client, not measured on this JDK; the publisher is still the JDK's HttpClient)" : "")
                    + ". Run the tool on JDK " + MEASURING_JDK + "+ and give the "
                    + "service's JDK with --java, e.g. /usr/lib/jvm/temurin-25-jdk-amd64/bin/java -jar load/target/"
                    + "threading-load.jar topics --java /usr/lib/jvm/java-17-openjdk-amd64/bin/java");
        }
        List<String> names = new ArrayList<>();
        List<TopicsView.Phase> phases = new ArrayList<>();
        for (String stream : streams) {
            if (stream.equals("in-process")) {
                try (Target single = open(report, environment(Map.of("EVENTS_STREAM", "in-process")), List.of())) {
                    names.add("in-process, 1 instance");
                    phases.add(measure(report, names.get(names.size() - 1), List.of(single), reading));
                }
            } else if (stream.equals("redis")) {
                try (RedisServerProcess redis = redisUri != null ? RedisServerProcess.running(redisUri)
                        : RedisServerProcess.start(report.directory().resolve("redis"))) {
                    report.environment("Redis", redis.version() + (redisUri != null ? " at " + redisUri : " (redis-server from the PATH, no persistence)"));
                    names.add("redis, " + instances + " instances");
                    phases.add(measureShared(report, names.get(names.size() - 1), Map.of("EVENTS_STREAM", "redis", "EVENTS_REDIS_URI", redis.uri()),
                            reading));
                }
            } else {
                try (RedisClusterProcesses redis = RedisClusterProcesses.start(report.directory().resolve("redis-cluster"), masters)) {
                    report.environment("Redis Cluster", redis.version() + " (redis-server from the PATH, no persistence)");
                    names.add("redis cluster, " + masters + " masters, " + instances + " instances");
                    phases.add(measureShared(report, names.get(names.size() - 1), Map.of("EVENTS_STREAM", "redis", "EVENTS_REDIS_URI", redis.uri(),
                            "EVENTS_REDIS_CLUSTER", "true"), reading));
                }
            }
        }
        TopicsView.present(report, names, phases, reading);
    }

    /** {@link #instances} instances on the Redis (or cluster) that {@code redis} names, measured, then stopped. */
    private TopicsView.Phase measureShared(Report report, String name, Map<String, String> redis, TopicsTraffic.Transport reading)
            throws Exception {
        Map<String, String> stream = new LinkedHashMap<>(redis);
        stream.put("EVENTS_REDIS_KEY", "load-topics-" + System.currentTimeMillis());
        List<Target> cluster = new ArrayList<>();
        try {
            for (int i = 0; i < instances; i++) {
                cluster.add(open(report, environment(stream), List.of()));
            }
            for (Target instance : cluster) {
                awaitHealthy(instance);
            }
            return measure(report, name, cluster, reading);
        } finally {
            cluster.forEach(Target::close);
        }
    }

    private TopicsView.Phase measure(Report report, String name, List<Target> services, TopicsTraffic.Transport reading) throws Exception {
        List<URI> uris = services.stream().map(Target::applicationUri).toList();
        TopicsTraffic.Publishing publishing = TopicsTraffic.Publishing.named(publish); // checked in run
        if (!warmup.isZero()) {
            TopicsTraffic.Result warm = new TopicsTraffic(new TopicsTraffic.Plan(uris, "warm-up-room-",
                    clients, rooms, roomsPerClient, messageBytes, rate, batchSize, publishing, warmup, pollTimeout, reading)).run();
            report.note(name + ": warm-up on other rooms for " + warmup.toSeconds() + " s (not counted): " + warm.published()
                    + " published, " + warm.deliveries() + " of " + warm.expectedDeliveries() + " deliveries read, p50 "
                    + Report.ms(warm.deliveryMicros().getValueAtPercentile(50) / 1000.0) + " ms.");
        }
        for (Target service : services) {
            profileFromHere(service, "record", report); // with --profile: the measured run gets its own flame graph
        }
        List<ServerMetrics> admins = services.stream().map(service -> new ServerMetrics(service.adminUri().orElseThrow())).toList();
        try {
            List<ServerMetrics.Timer> batchesBefore = new ArrayList<>();
            for (ServerMetrics admin : admins) {
                batchesBefore.add(admin.timer(ServerMetrics.EVENT_TO_LAST_WRITE));
            }
            List<CpuClock> serverClocks = services.stream().map(service -> service.serverCpu().clock()).toList();
            CpuClock toolClock = new CpuClock(Optional.of(ProcessHandle.current()));
            Instant from = Instant.now();
            TopicsTraffic.Result result = new TopicsTraffic(new TopicsTraffic.Plan(uris, "room-",
                    clients, rooms, roomsPerClient, messageBytes, rate, batchSize, publishing, duration, pollTimeout, reading)).run();
            Instant to = Instant.now();
            double serverCpu = 0;
            for (CpuClock clock : serverClocks) {
                serverCpu += clock.percentSinceLast();
            }
            double toolCpu = toolClock.percentSinceLast();
            ServerMetrics.Timer batches = new ServerMetrics.Timer(0, 0, Map.of());
            for (int i = 0; i < admins.size(); i++) {
                batches = batches.plus(admins.get(i).timer(ServerMetrics.EVENT_TO_LAST_WRITE).since(batchesBefore.get(i)));
            }
            return new TopicsView.Phase(result, serverCpu, toolCpu, pausesOf(services, from, to), batches,
                    Duration.between(from, to).toMillis() / 1000.0);
        } finally {
            admins.forEach(ServerMetrics::close);
        }
    }

    /** The GC pauses of every service between {@code from} and {@code to}, together. */
    private GcPauses pausesOf(List<Target> services, Instant from, Instant to) throws IOException {
        long pauses = 0;
        double pausedMs = 0;
        double longestMs = 0;
        for (Target service : services) {
            GcPauses gc = servicePauses(service, from, to);
            pauses += gc.count();
            pausedMs += gc.totalMs();
            longestMs = Math.max(longestMs, gc.maxMs());
        }
        return new GcPauses(pauses, pausedMs, longestMs);
    }

    private Map<String, String> environment(Map<String, String> stream) {
        Map<String, String> environment = new LinkedHashMap<>(stream);
        environment.put("EVENTS_TICK_PERIOD", "0");
        environment.put("EVENTS_MAX_TOPICS_PER_POLL", Integer.toString(Math.max(16, roomsPerClient)));
        // The warm-up's rooms, the measured rooms and the default topic: the warm-up's are not evicted in between.
        environment.put("EVENTS_MAX_TOPICS", Integer.toString(Math.max(10_000, 2 * rooms + 1)));
        if (TopicsTraffic.Transport.named(transport) == TopicsTraffic.Transport.WS) {
            // The warm-up's sockets and the measured run's, in case the first are not all closed on the server yet.
            environment.put("EVENTS_WS_MAX_SOCKETS", Integer.toString(Math.max(10_000, 2 * clients + 16)));
        }
        return environment;
    }
}
