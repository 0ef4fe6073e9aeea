package com.example.threading.load.scenario.topology;

import com.example.threading.load.engine.traffic.RotationWatch;
import com.example.threading.load.engine.traffic.RotationWatch.Source;
import com.example.threading.load.engine.traffic.TopologyTraffic;
import com.example.threading.load.report.Report;
import com.example.threading.load.scenario.ScenarioCommand;
import com.example.threading.load.service.topology.ComposeFile;
import com.example.threading.load.service.topology.ContainerImage;
import com.example.threading.load.service.topology.LinkFault;
import com.example.threading.load.service.topology.Prerequisites;
import com.example.threading.load.service.topology.Topology;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The documented deployment (deploy/docker-compose.yml, the Dockerfile, deploy/haproxy.cfg) run as shipped, without
 * Docker, and put through faults: does it serve as documented, does every follower get every event once and in order
 * through the balancer while hosts behind it fail, and how long does the balancer take to take a host out and back?
 */
@Command(name = "topology",
        description = "The compose topology (Redis, instances, HAProxy) rebuilt in network namespaces from deploy/ and the "
                + "Dockerfile, checked as documented, then put through faults (kill, redis-cut, link, redis-restart) under "
                + "publishers, followers and /work requests: per-follower lost / duplicated / out-of-order events, retries, "
                + "errors by kind, time out of and back into rotation, delivery latency through the balancer and direct. Needs root.")
public final class TopologyScenario extends ScenarioCommand {

    private static final Duration INSTANCE_START = Duration.ofSeconds(120);
    /** How long the run's token is valid: far beyond any run. */
    private static final Duration TOKEN_LIFETIME = Duration.ofHours(24);
    /** Longest wait for the balancer to take a faulted host out, or to bring it back. */
    private static final Duration ROTATION_WAIT = Duration.ofSeconds(60);

    @Option(names = "--compose", description = "The compose file (default: deploy/docker-compose.yml of this repository)")
    Path compose;

    @Option(names = "--image", description = "The instances' image, a bundle deploy/image/build unpacked before (default: built now "
            + "from the compose file's build context with its deploy/image/build, into the report folder)")
    Path image;

    @Option(names = "--followers", defaultValue = "50", description = "Followers, each keeping its cursor (default: ${DEFAULT-VALUE})")
    int followers;

    @Option(names = "--rate", defaultValue = "10", description = "Events published per second (default: ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--work-rate", defaultValue = "5", description = "GET /work/cached?ms=20 per second (default: ${DEFAULT-VALUE})")
    double workRate;

    @Option(names = "--poll-timeout", defaultValue = "5", description = "timeout=<seconds> of each poll (default: ${DEFAULT-VALUE})")
    int pollTimeout;

    @Option(names = "--service-warm-up", defaultValue = "20s", description = "Unmeasured traffic before the baselines, so that "
            + "their comparison is not the instances' JIT at work (default: ${DEFAULT-VALUE})")
    Duration serviceWarmUp;

    @Option(names = "--baseline", defaultValue = "30s", description = "Length of each baseline, direct to the instances and through the "
            + "balancer, run in halves in the order direct, balancer, balancer, direct (default: ${DEFAULT-VALUE})")
    Duration baseline;

    @Option(names = "--faults", split = ",", defaultValue = "kill,redis-cut,link,redis-restart",
            description = "Faults to inject, one phase each, in this order (default: ${DEFAULT-VALUE})")
    List<String> faults;

    @Option(names = "--warm-up", defaultValue = "5s", description = "Traffic before each fault (default: ${DEFAULT-VALUE})")
    Duration warmUp;

    @Option(names = "--hold", defaultValue = "10s", description = "Least time a fault lasts; kill, redis-cut and redis-restart also "
            + "wait until the balancer has taken the host out (default: ${DEFAULT-VALUE})")
    Duration hold;

    @Option(names = "--settle", defaultValue = "10s", description = "Traffic after the host is back in rotation (default: ${DEFAULT-VALUE})")
    Duration settle;

    @Option(names = "--link-delay", defaultValue = "100ms", description = "Link fault: delay per packet (default: ${DEFAULT-VALUE})")
    Duration linkDelay;

    @Option(names = "--link-jitter", defaultValue = "20ms", description = "Link fault: delay jitter (default: ${DEFAULT-VALUE})")
    Duration linkJitter;

    @Option(names = "--link-loss", defaultValue = "5", description = "Link fault: %% of packets dropped (default: ${DEFAULT-VALUE})")
    double linkLoss;

    @Option(names = "--instance", description = "The instance the faults hit (default: the first one in the compose file)")
    String instance;

    /** A run with this scenario's defaults, filled in by picocli. */
    public TopologyScenario() {
        super(Duration.ofMinutes(15));
    }

    @Override
    protected void run(Report report) throws Exception {
        if (target().runningService().isPresent()) {
            throw new IllegalArgumentException("topology starts its own hosts from the compose file; --url is not supported");
        }
        List<String> missing = new ArrayList<>(Prerequisites.missing());
        ContainerImage.missing().stream().filter(sentence -> !missing.contains(sentence)).forEach(missing::add);
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the topology cannot run here: " + String.join("; ", missing) + ". Run it as root after "
                    + Prerequisites.INSTALL + " " + ContainerImage.INSTALL.replace("apt-get install -y ", ""));
        }
        List<Fault> plan = faults.stream().map(Fault::of).toList();
        Path jar = target().serviceJar();
        Path repository = jar.toAbsolutePath().getParent().getParent();
        Path composeFile = compose != null ? compose : repository.resolve("deploy").resolve("docker-compose.yml");
        // The deployment requires a JWT on every poll and publish: a fresh secret per run, and a token that outlives the run
        // (which --max-duration ends: 15 min by default). A poll waits at most until its token ends, so it must not end first.
        EventTokens tokens = EventTokens.fresh();
        String token = tokens.everyTopic(TOKEN_LIFETIME);
        Map<String, String> shell = Map.of(EventTokens.SECRET_VARIABLE, tokens.secret());
        ContainerImage instances = image != null ? ContainerImage.open(image)
                : ContainerImage.build(buildContext(composeFile, shell), report.directory().resolve("image"),
                        report.directory().resolve("image-build.log"));
        Topology.Sources sources = new Topology.Sources(composeFile, instances, shell, target().serviceEnvironment());
        report.configure("service warm-up", serviceWarmUp).configure("followers", followers).configure("publish rate /s", rate).configure("/work rate /s", workRate)
                .configure("poll timeout s", pollTimeout).configure("baseline", baseline).configure("faults", plan)
                .configure("warm-up", warmUp).configure("hold", hold).configure("settle", settle)
                .configure("link fault", new LinkFault(linkDelay, linkJitter, linkLoss).describe());

        List<FaultPhase> phases = new ArrayList<>();
        List<DeploymentCheck> checks;
        double interval;
        List<String> remains;
        try (Topology topology = Topology.start(sources, report.directory().resolve("topology"))) {
            topology.facts().forEach(report::environment);
            if (!topology.leftoversRemoved().isEmpty()) {
                report.note("Left by an earlier run that was killed, removed before this one: " + topology.leftoversRemoved());
            }
            String victim = instance != null ? instance : topology.instances().get(0);
            interval = checkIntervalSeconds(Files.readString(topology.balancerConfig()));
            report.summary("The compose file's hosts (" + String.join(", ", names(topology)) + ") run in network namespaces, as the "
                    + "Dockerfile and the compose file start them. First the deployment is checked as documented, then "
                    + followers + " followers long-poll through the balancer keeping their cursors while " + Report.num(rate)
                    + " events/s are published (every poll and publish with a JWT for every topic, publishes retried after "
                    + "Retry-After) and " + Report.num(workRate)
                    + " /work requests/s are sent; two baselines (direct to the instances, through the balancer; in halves, A B B A), then one phase per "
                    + "fault on " + victim + ". Goals: 0 events lost, duplicated or out of order for any follower; a dead or Redis-less "
                    + "instance out of rotation within two check intervals (" + Report.num(2 * interval) + " s) and back within two "
                    + "after it recovers; publishes refused only with 503 + Retry-After while Redis is away; delivery p99 through "
                    + "the balancer at most twice the direct one.");
            checks = DeploymentChecks.run(topology, tokens);
            try (RotationWatch watch = watch(topology)) {
                TopologyTraffic.Plan direct = plan(topology.instances().stream().map(topology::instanceUri).toList(), token);
                TopologyTraffic.Plan balanced = plan(List.of(topology.balancerUri()), token);
                List<URI> everyEntry = new ArrayList<>(direct.entries());
                everyEntry.add(topology.balancerUri());
                TopologyTraffic.start(plan(everyEntry, token)).sleepAndFinish(serviceWarmUp);
                // A B B A: each baseline in two halves, so a machine still warming up or slowing down favours neither.
                Duration half = baseline.dividedBy(2);
                phases.add(baseline(TopologyView.DIRECT + " (1 of 2)", direct, half));
                phases.add(baseline(TopologyView.BALANCED + " (1 of 2)", balanced, half));
                phases.add(baseline(TopologyView.BALANCED + " (2 of 2)", balanced, half));
                phases.add(baseline(TopologyView.DIRECT + " (2 of 2)", direct, half));
                for (Fault fault : plan) {
                    phases.add(inject(fault, topology, watch, victim, balanced, interval));
                }
            }
            topology.close();
            remains = topology.network().remains();
        }
        report.note(remains.isEmpty() ? "Torn down: no namespace, link, /etc/netns folder or socket of this run remains."
                : "Left behind after the teardown (removed by the next run): " + remains);
        TopologyView.present(report, checks, phases, interval);
    }

    private static FaultPhase baseline(String name, TopologyTraffic.Plan traffic, Duration length) throws IOException, InterruptedException {
        return new FaultPhase(name, null, "none", TopologyTraffic.start(traffic).sleepAndFinish(length), List.of());
    }

    private FaultPhase inject(Fault fault, Topology topology, RotationWatch watch, String victim, TopologyTraffic.Plan traffic,
                              double interval) throws Exception {
        TopologyTraffic.Running running = TopologyTraffic.start(traffic);
        Thread.sleep(warmUp.toMillis());
        Injection injection = new Injection(topology, watch, victim, 2 * interval);
        String applied = switch (fault) {
            case KILL -> injection.kill();
            case REDIS_CUT -> injection.redisCut();
            case LINK -> injection.link();
            case REDIS_RESTART -> injection.redisRestart();
        };
        Thread.sleep(settle.toMillis());
        return new FaultPhase(fault.option(), fault, applied, running.finish(), injection.rotation);
    }

    /** One fault, injected now on {@code victim}: each method does it, undoes it, and times the balancer. */
    private final class Injection {

        private final Topology topology;
        private final RotationWatch watch;
        private final String victim;
        private final double bound;
        private final List<RotationFigure> rotation = new ArrayList<>();
        private final long faultAt = System.nanoTime();

        Injection(Topology topology, RotationWatch watch, String victim, double bound) {
            this.topology = topology;
            this.watch = watch;
            this.victim = victim;
            this.bound = bound;
        }

        String kill() throws Exception {
            topology.kill(victim);
            awaitOut(watch, victim, faultAt);
            long restartAt = System.nanoTime();
            topology.startInstance(victim);
            topology.awaitReady(victim, INSTANCE_START);
            long readyAt = watch.firstChange(victim, Source.READINESS, RotationWatch.READY, restartAt).orElse(System.nanoTime());
            awaitIn(watch, victim);
            balancer(victim, "out of rotation after SIGKILL", RotationWatch.OUT, faultAt, true);
            step(victim, "ready again after its restart", OptionalLong.of(readyAt), restartAt);
            balancer(victim, "back in rotation after it is ready", RotationWatch.IN, readyAt, true);
            return "SIGKILL " + victim + "; started again " + Report.num((restartAt - faultAt) / 1e9) + " s later";
        }

        String redisCut() throws Exception {
            topology.cutFromRedis(victim);
            awaitOut(watch, victim, faultAt);
            long healAt = System.nanoTime();
            topology.reconnectToRedis(victim);
            awaitIn(watch, victim);
            OptionalLong notReady = watch.firstChange(victim, Source.READINESS, RotationWatch.NOT_READY, faultAt);
            step(victim, "not ready after the cut (its stream notices)", notReady, faultAt);
            balancer(victim, "out of rotation after the cut", RotationWatch.OUT, faultAt, true);
            if (notReady.isPresent()) {
                balancer(victim, "out of rotation after it reports not ready", RotationWatch.OUT, notReady.getAsLong(), false);
            }
            OptionalLong readyAgain = watch.firstChange(victim, Source.READINESS, RotationWatch.READY, healAt);
            step(victim, "ready again after reconnecting", readyAgain, healAt);
            if (readyAgain.isPresent()) {
                balancer(victim, "back in rotation after it is ready", RotationWatch.IN, readyAgain.getAsLong(), true);
            }
            return "blackhole route to Redis on " + victim + " for " + Report.num((healAt - faultAt) / 1e9) + " s";
        }

        String link() throws Exception {
            String applied = topology.degradeLink(victim, new LinkFault(linkDelay, linkJitter, linkLoss));
            Thread.sleep(hold.toMillis());
            topology.restoreLink(victim);
            long restoredAt = System.nanoTime();
            awaitIn(watch, victim);
            OptionalLong out = watch.firstChange(victim, Source.BALANCER, RotationWatch.OUT, faultAt);
            if (out.isPresent()) {
                step(victim, "out of rotation during the fault", out, faultAt);
                balancer(victim, "back in rotation after the link is restored", RotationWatch.IN, restoredAt, false);
            } else {
                step(victim, "stayed in rotation throughout", OptionalLong.of(faultAt), faultAt);
            }
            return applied + " for " + hold.toSeconds() + " s";
        }

        String redisRestart() throws Exception {
            topology.stopRedis();
            for (String server : topology.instances()) {
                awaitOut(watch, server, faultAt);
            }
            long startAt = System.nanoTime();
            topology.startRedis();
            for (String server : topology.instances()) {
                awaitIn(watch, server);
            }
            for (String server : topology.instances()) {
                balancer(server, "out of rotation after Redis stopped", RotationWatch.OUT, faultAt, false);
                OptionalLong readyAgain = watch.firstChange(server, Source.READINESS, RotationWatch.READY, startAt);
                step(server, "ready again after Redis started", readyAgain, startAt);
                if (readyAgain.isPresent()) {
                    balancer(server, "back in rotation after it is ready", RotationWatch.IN, readyAgain.getAsLong(), true);
                }
            }
            return "Redis stopped (SIGTERM), started again on its AOF " + Report.num((startAt - faultAt) / 1e9) + " s later";
        }

        /** The time from {@code fromNanos} until the balancer had {@code server} in {@code state}; judged against two intervals. */
        private void balancer(String server, String step, String state, long fromNanos, boolean judged) {
            OptionalLong at = watch.firstChange(server, Source.BALANCER, state, fromNanos);
            rotation.add(new RotationFigure(server, step, seconds(at, fromNanos), bound, judged));
        }

        /** A step reported for information, not judged. */
        private void step(String server, String step, OptionalLong at, long fromNanos) {
            rotation.add(new RotationFigure(server, step, seconds(at, fromNanos), 0, false));
        }
    }

    /** Waits --hold, and until the balancer has {@code server} out of rotation (at most a minute more). */
    private void awaitOut(RotationWatch watch, String server, long faultAt) throws InterruptedException {
        try {
            watch.await(server, Source.BALANCER, RotationWatch.OUT, ROTATION_WAIT);
        } catch (TimeoutException stillIn) {
            // Reported: the figure stays empty.
        }
        long held = System.nanoTime() - faultAt;
        if (held < hold.toNanos()) {
            Thread.sleep((hold.toNanos() - held) / 1_000_000);
        }
    }

    private static void awaitIn(RotationWatch watch, String server) throws InterruptedException {
        try {
            watch.await(server, Source.BALANCER, RotationWatch.IN, ROTATION_WAIT);
        } catch (TimeoutException stillOut) {
            // Reported: the figure stays empty.
        }
    }

    private static OptionalDouble seconds(OptionalLong at, long fromNanos) {
        return at.isPresent() ? OptionalDouble.of((at.getAsLong() - fromNanos) / 1e9) : OptionalDouble.empty();
    }

    private TopologyTraffic.Plan plan(List<URI> entries, String token) {
        return new TopologyTraffic.Plan(entries, Optional.of(token), followers, rate, workRate, pollTimeout);
    }

    private static RotationWatch watch(Topology topology) {
        Map<String, URI> readiness = new LinkedHashMap<>();
        topology.instances().forEach(name -> readiness.put(name, topology.instanceUri(name).resolve("/ready")));
        return RotationWatch.start(topology.statsSocket(), readiness);
    }

    private static List<String> names(Topology topology) {
        List<String> names = new ArrayList<>();
        topology.network().hosts().forEach(host -> names.add(host.name()));
        return names;
    }

    /** The build context of the compose file's first built service: the repository whose Dockerfile its image is built from. */
    private static Path buildContext(Path composeFile, Map<String, String> shell) throws IOException {
        return ComposeFile.read(composeFile, shell).services().stream().flatMap(service -> service.buildContext().stream())
                .findFirst().orElseThrow(() -> new IOException(composeFile + " builds no image; give --image"));
    }

    /** HAProxy's check interval: the {@code inter} of its default-server or server lines (its default, 2 s, otherwise). */
    static double checkIntervalSeconds(String haproxyConfig) {
        Matcher inter = Pattern.compile("(?m)^\\s*(?:default-server|server)\\s[^\\n]*\\binter\\s+(\\d+)(ms|s)?\\b").matcher(haproxyConfig);
        if (!inter.find()) {
            return 2.0;
        }
        double value = Double.parseDouble(inter.group(1));
        return "s".equals(inter.group(2)) ? value : value / 1000.0;
    }
}
