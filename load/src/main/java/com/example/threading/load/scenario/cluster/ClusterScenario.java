package com.example.threading.load.scenario.cluster;

import com.example.threading.load.engine.traffic.ClusterTraffic;
import com.example.threading.load.report.Report;
import com.example.threading.load.scenario.ScenarioCommand;
import com.example.threading.load.service.RedisServerProcess;
import com.example.threading.load.service.Target;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * N instances on one Redis Stream against one in-process instance, under the same publishers and followers: does
 * every follower get every event once and in order, wherever its polls land, and what does the shared stream add to
 * publish → delivery latency?
 */
@Command(name = "cluster",
        description = "N instances sharing a Redis Stream vs one in-process instance: per-client lost / duplicated / "
                + "out-of-order events and publish -> delivery latency; --kill-one kills an instance half-way.")
public final class ClusterScenario extends ScenarioCommand {

    @Option(names = "--instances", defaultValue = "2", description = "Instances on the shared stream (default: ${DEFAULT-VALUE})")
    int instances;

    @Option(names = "--clients", defaultValue = "100", description = "Followers, each polling a random instance per poll (default: ${DEFAULT-VALUE})")
    int clients;

    @Option(names = "--rate", defaultValue = "20", description = "Events published per second, each on a random instance (default: ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--duration", defaultValue = "30s", description = "Publishing time per phase (default: ${DEFAULT-VALUE})")
    Duration duration;

    @Option(names = "--poll-timeout", defaultValue = "5", description = "timeout=<seconds> of each poll (default: ${DEFAULT-VALUE})")
    int pollTimeout;

    @Option(names = "--redis-uri", description = "A running loopback Redis (>= 6.2) instead of starting redis-server from the PATH")
    URI redisUri;

    @Option(names = "--kill-one", description = "Kill one instance with SIGKILL half-way through the shared-stream phase")
    boolean killOne;

    @Option(names = "--skip-in-process", description = "Measure only the shared stream")
    boolean skipInProcess;

    /** A run with this scenario's defaults, filled in by picocli. */
    public ClusterScenario() {
        super(Duration.ofSeconds(300));
    }

    @Override
    protected void run(Report report) throws Exception {
        if (target().runningService().isPresent()) {
            throw new IllegalArgumentException("cluster starts its own instances (they need the same Redis); --url is not supported");
        }
        report.configure("instances", instances).configure("clients", clients).configure("publish rate /s", rate)
                .configure("duration per phase", duration).configure("poll timeout s", pollTimeout).configure("kill one", killOne);
        report.summary(clients + " followers poll a random instance per poll, following lastId, while " + Report.num(rate)
                + " events/s are published, each on a random instance, for " + duration.toSeconds() + " s per phase: first one "
                + "in-process instance, then " + instances + " instances on one Redis Stream" + (killOne ? ", one of them killed "
                + "with SIGKILL half-way" : "") + ". Per follower: lost, duplicated and out-of-order events (goal: 0). Delivery "
                + "latency: from a publish's intended send time to each follower's receipt.");
        List<ClusterTraffic.Result> phases = new ArrayList<>();
        List<String> names = new ArrayList<>();
        if (!skipInProcess) {
            try (Target single = open(report, environment("in-process", null), List.of())) {
                names.add("in-process, 1 instance");
                phases.add(new ClusterTraffic(List.of(single.applicationUri()), clients, rate, duration, pollTimeout).run(Optional.empty()));
            }
        }
        try (RedisServerProcess redis = redisUri != null ? RedisServerProcess.running(redisUri)
                : RedisServerProcess.start(report.directory().resolve("redis"))) {
            report.environment("Redis", redis.version() + (redisUri != null ? " at " + redisUri : " (redis-server from the PATH, no persistence)"));
            String key = "load-cluster-" + System.currentTimeMillis();
            List<Target> cluster = new ArrayList<>();
            try {
                for (int i = 0; i < instances; i++) {
                    cluster.add(open(report, environment("redis", Map.of("EVENTS_REDIS_URI", redis.uri(), "EVENTS_REDIS_KEY", key)), List.of()));
                }
                for (Target instance : cluster) {
                    awaitHealthy(instance);
                }
                List<URI> uris = cluster.stream().map(Target::applicationUri).toList();
                Optional<Supplier<URI>> kill = killOne ? Optional.of(() -> {
                    cluster.get(0).kill();
                    return uris.get(0);
                }) : Optional.empty();
                names.add("redis, " + instances + " instances" + (killOne ? ", one killed" : ""));
                phases.add(new ClusterTraffic(uris, clients, rate, duration, pollTimeout).run(kill));
            } finally {
                cluster.forEach(Target::close);
            }
        }
        ClusterView.present(report, names, phases);
    }

    private static Map<String, String> environment(String stream, Map<String, String> redis) {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("EVENTS_STREAM", stream);
        environment.put("EVENTS_TICK_PERIOD", "0");
        if (redis != null) {
            environment.putAll(redis);
        }
        return environment;
    }
}
