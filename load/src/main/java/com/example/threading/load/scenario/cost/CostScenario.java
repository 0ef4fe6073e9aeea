package com.example.threading.load.scenario.cost;

import com.example.threading.load.engine.http.H2load;
import com.example.threading.load.engine.http.H2loadStretch;
import com.example.threading.load.engine.http.SimpleHttp;
import com.example.threading.load.engine.jvm.Profiler;
import com.example.threading.load.engine.jvm.ServerMetrics;
import com.example.threading.load.engine.traffic.EventPublisher;
import com.example.threading.load.report.Durations;
import com.example.threading.load.report.Report;
import com.example.threading.load.scenario.ScenarioCommand;
import com.example.threading.load.service.CpuClock;
import com.example.threading.load.service.ServerThreadsCpu;
import com.example.threading.load.service.Target;
import com.example.threading.load.service.TargetOptions.RequestLog;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * What one request costs the server, endpoint by endpoint, in one run on one service process: h2load drives each
 * endpoint in a closed loop over HTTP/1.1, a warm-up (the JIT compiles meanwhile) then a measured stretch, and the
 * server's CPU time over exactly that stretch ({@link H2loadStretch}) is divided by the 2xx answers h2load counted in it.
 * Admin {@code /ping} is the baseline every other figure is a ratio to. With {@code --profile}, every endpoint is
 * loaded twice more after all are measured, once under async-profiler's CPU sampling and once under its allocation
 * sampling, so the profiler is never attached while a figure is measured. With {@code --compare-request-log}, every
 * endpoint is measured on a service with config.yml's request log, then again on a fresh one without it, and the ratios
 * of both stand side by side. {@link CostView} presents the figures.
 */
@Command(name = "cost",
        description = "Server CPU per request (µs) of admin /ping, each /work pattern at ms=0, a publish, a batch of 10 publishes "
                + "in one request and a long-poll answer, "
                + "each as a ratio to /ping's, in one run on one service (h2load, closed loop, HTTP/1.1).")
public final class CostScenario extends ScenarioCommand {

    /** The /work patterns, in the order of the table. */
    static final List<String> PATTERNS = List.of("blocking", "thread-per-request", "cached", "bounded", "virtual");

    private static final String POLL_TOPIC = "cost";
    private static final String PUBLISH_TOPIC = "cost-publish";
    /** Polls wait at most this long (the service's largest timeout), far longer than between two events. */
    private static final int POLL_TIMEOUT_SECONDS = 60;
    private static final String PUBLISH_BODY = "{\"cost\":\"publish\",\"price\":12.5,\"items\":[1,2,3]}";
    /** Events in the batch publish's one request, as CometD's benchmark sends them. */
    static final int BATCH_EVENTS = 10;
    private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(10);
    private static final Pattern JAVA_FEATURE = Pattern.compile("Java (\\d+)");

    @Option(names = "--warmup", defaultValue = "20s", description = "Load on each endpoint before its measured stretch, not counted: "
            + "a fresh service spends much CPU compiling its hot code in its first ~30 s (default: ${DEFAULT-VALUE})")
    Duration warmup;

    @Option(names = "--seconds", defaultValue = "10s", description = "Measured stretch per endpoint (default: ${DEFAULT-VALUE})")
    Duration seconds;

    @Option(names = "--connections", defaultValue = "16", description = "h2load's connections, each one request at a time "
            + "(closed loop), for every endpoint but the long poll (default: ${DEFAULT-VALUE})")
    int connections;

    @Option(names = "--polls", defaultValue = "1000", description = "The long poll's parked connections: each polls again as soon as "
            + "an event answers it (default: ${DEFAULT-VALUE})")
    int polls;

    @Option(names = "--events-per-second", defaultValue = "20", description = "Events the tool publishes to the long poll's topic, "
            + "from one thread, while it is loaded (default: ${DEFAULT-VALUE})")
    double eventsPerSecond;

    @Option(names = "--compare-request-log", description = "Measure every endpoint twice: on a service with config.yml's request "
            + "log, then on a fresh one without it (as --request-log off starts it); the report gives both ratios to /ping side by "
            + "side, and the log's server CPU per request")
    boolean compareRequestLog;

    @Option(names = "--batch-polls", split = ",", defaultValue = "1000,10000", description = "The batch rows' parked long-polls: one "
            + "event to that many polls (HTTP/1.1, a connection each), a row per size; empty for none (default: ${DEFAULT-VALUE})")
    List<Integer> batchPolls = new ArrayList<>();

    @Option(names = "--batch-streams", defaultValue = "1000", description = "The batch rows' Server-Sent Events streams and WebSockets: "
            + "one event to that many of each; 0 for none (default: ${DEFAULT-VALUE})")
    int batchStreams;

    @Option(names = "--batch-warmup", defaultValue = "20", description = "Rounds of each batch row before its measured ones, not "
            + "counted (default: ${DEFAULT-VALUE})")
    int batchWarmup;

    @Option(names = "--batch-rounds", defaultValue = "15", description = "Measured rounds of each batch row: its figures are their "
            + "medians (default: ${DEFAULT-VALUE})")
    int batchRounds;

    @Option(names = "--batch-only", description = "Measure /ping (the ratios' baseline) and the batch rows only, not the other endpoints")
    boolean batchOnly;

    @Option(names = "--baseline", description = "Another service jar (e.g. built at the commit before a change): every endpoint and "
            + "every batch row is measured on it and on this run's service, alternately, and both ratios to /ping stand side by side")
    Path baseline;

    @Option(names = "--baseline-config", description = "The --baseline jar's config.yml (default: the one next to its target/ folder)")
    Path baselineConfig;

    /** A run with this scenario's defaults, filled in by picocli. */
    public CostScenario() {
        super(Duration.ofMinutes(15));
    }

    /** The profiler is attached only in the extra stretches after the measured ones, never from the service's start. */
    @Override
    protected boolean profilesEachService() {
        return false;
    }

    @Override
    protected void run(Report report) throws Exception {
        validate();
        Path h2load = H2load.onPath().orElseThrow(() -> new IllegalStateException("cost drives its load with h2load, which is not on PATH: "
                + H2load.INSTALL + " (Debian's nghttp2-client)"));
        String h2loadVersion = H2load.version(h2load);
        Path body = report.directory().resolve("publish-body.json");
        Files.writeString(body, PUBLISH_BODY);
        Path batchBody = report.directory().resolve("publish-batch-body.json");
        Files.writeString(batchBody, batchBody());
        String setting = "h2load --h1, closed loop, " + connections + " connections (long poll: " + polls + "); warm-up "
                + Durations.format(warmup) + ", measured " + Durations.format(seconds) + " per endpoint";
        report.environment("load generator", h2loadVersion + " (closed loop, HTTP/1.1, one thread)");
        report.configure("warm-up per endpoint", warmup).configure("measured per endpoint", seconds).configure("connections", connections)
                .configure("long-poll connections (parked polls)", polls).configure("events per second (long poll)", eventsPerSecond)
                .configure("poll timeout s", POLL_TIMEOUT_SECONDS).configure("publish body", PUBLISH_BODY)
                .configure("request log", compareRequestLog ? "on, then off on a second service (--compare-request-log)"
                        : target().requestLog().name())
                .configure("profile", profiling() ? "a CPU and an allocation flame graph per endpoint, in extra stretches of "
                        + Durations.format(seconds) + " after all measured ones" : "no");
        report.summary("What one request costs the server: for each endpoint, h2load (" + setting + ") loads it alone, and the "
                + "server's CPU time (its threads' time on a CPU, from /proc, without the JIT compiler's threads, which compile "
                + "meanwhile whatever they are behind on) over exactly the measured stretch — from "
                + "h2load's announcing its start to its announcing its end — is divided by the 2xx answers h2load counted in "
                + "that stretch. A run with answers other than 2xx is reported as such, not counted. The figures are ratios "
                + "within one run, on one service process: each endpoint's CPU per request divided by admin /ping's (Jetty and "
                + "a plain servlet). Absolute times hold on this machine only (CPU model, cores and load average below); h2load "
                + "and the tool share its " + CpuClock.cores() + " cores with the service. Endpoints are measured in the order "
                + "of the table; the long poll comes last because the polls it leaves parked at its end are answered only by a "
                + "later event.");
        report.note("The tool reads the service's admin /metrics once a second (heap, threads, for the JVM table) and the service "
                + "publishes a tick every 2 s: their CPU is in every figure, spread over that endpoint's requests.");
        if (baseline != null) {
            compareWithBaseline(report, h2load, body, batchBody, setting);
            return;
        }
        if (!compareRequestLog) {
            try (Target service = openService(report, target().requestLog())) {
                List<Measurement> measurements = measureAll(service, h2load, body, batchBody, report);
                List<BatchRow> batches = measureBatches(List.of(service), report).get(0);
                List<FlameGraphs> flames = new ArrayList<>();
                if (profiling()) {
                    for (Measurement measurement : measurements) {
                        if (measurement.run().isPresent() && !deadline().isUp()) {
                            flames.add(profile(service, measurement.endpoint(), h2load, report));
                        }
                    }
                }
                List<FlameGraphs.Graph> batchFlames = new ArrayList<>();
                if (profiling()) {
                    for (BatchRow row : batches) {
                        if (row.measured() && !deadline().isUp()) {
                            batchFlames.add(profileBatch(service, row, report));
                        }
                    }
                }
                List<EndpointCost> costs = CostView.present(report, setting, measurements, POLL_TIMEOUT_SECONDS, flames, CostView.DATA);
                CostView.presentBatches(report, batches, CostView.pingMicros(costs));
                CostView.presentBatchFlames(report, batches, batchFlames);
            }
            return;
        }
        report.note("Every endpoint is measured twice, on two fresh services of the same jar one after the other: first with "
                + "config.yml's request log (one line per request of either port, admin /ping's too), then without it. Each "
                + "ratio divides by /ping measured on the same service.");
        List<EndpointCost> withLog;
        try (Target service = openService(report, RequestLog.on)) {
            withLog = CostView.present(report, setting + "; request log on", measureAll(service, h2load, body, batchBody, report),
                    POLL_TIMEOUT_SECONDS, List.of(), CostView.DATA);
        }
        List<EndpointCost> withoutLog;
        try (Target service = openService(report, RequestLog.off)) {
            withoutLog = CostView.present(report, setting + "; request log off", measureAll(service, h2load, body, batchBody, report),
                    POLL_TIMEOUT_SECONDS, List.of(), CostView.DATA_WITHOUT_REQUEST_LOG);
        }
        CostView.compareRequestLog(report, withLog, withoutLog);
    }

    /**
     * {@code --baseline}: this run's service and the baseline's, side by side: every endpoint loaded on one, then on the
     * other, then the batch rows, each in two blocks per service (A B A B), so that the machine's drift falls on both.
     */
    private void compareWithBaseline(Report report, Path h2load, Path body, Path batchBody, String setting) throws Exception {
        Path config = baselineConfig != null ? baselineConfig : baseline.toAbsolutePath().getParent().getParent().resolve("config.yml");
        report.configure("baseline", baseline.toAbsolutePath() + " " + config.toAbsolutePath());
        report.note("A/B: every endpoint is measured on this run's service, then on the baseline's (" + baseline + "), one after "
                + "the other; each batch row in two blocks per service, alternately. Each ratio divides by /ping measured on the same "
                + "service.");
        try (Target service = openService(report, target().requestLog());
             Target other = checked(openOther(report, "baseline", baseline, config, Map.of("LOG_LEVEL", "WARN")))) {
            List<Measurement> mine = new ArrayList<>();
            List<Measurement> theirs = new ArrayList<>();
            List<Endpoint> ours = endpoints(service, body, batchBody);
            List<Endpoint> baselines = endpoints(other, body, batchBody);
            for (int i = 0; i < ours.size(); i++) {
                if (deadline().isUp()) {
                    break;
                }
                mine.add(measure(service, ours.get(i), h2load, report));
                theirs.add(measure(other, baselines.get(i), h2load, report));
            }
            List<List<BatchRow>> batches = measureBatches(List.of(service, other), report);
            List<EndpointCost> mineCosts = CostView.present(report, setting + "; this run's service", mine, POLL_TIMEOUT_SECONDS, List.of(),
                    CostView.DATA);
            List<EndpointCost> theirCosts = CostView.present(report, setting + "; the baseline", theirs, POLL_TIMEOUT_SECONDS, List.of(),
                    CostView.DATA_OF_BASELINE);
            CostView.compareWithBaseline(report, mineCosts, theirCosts, batches.get(0), batches.get(1));
        }
    }

    private static Target checked(Target service) {
        if (!service.serverCpu().measured() || service.adminUri().isEmpty()) {
            service.close();
            throw new IllegalStateException("the baseline service's CPU or admin port cannot be measured");
        }
        return service;
    }

    /**
     * The batch rows on each of {@code services} (one list per service, in that order): for every --batch-polls size
     * and, with --batch-streams, for streams and sockets, its warm-up and measured rounds; with two services in two blocks
     * each, alternately.
     */
    private List<List<BatchRow>> measureBatches(List<Target> services, Report report) throws Exception {
        List<List<BatchRow>> rows = new ArrayList<>();
        services.forEach(service -> rows.add(new ArrayList<>()));
        List<Map.Entry<Batch.Shape, Integer>> shapes = new ArrayList<>();
        batchPolls.forEach(size -> shapes.add(Map.entry(Batch.Shape.POLLS, size)));
        if (batchStreams > 0) {
            shapes.add(Map.entry(Batch.Shape.STREAMS, batchStreams));
            shapes.add(Map.entry(Batch.Shape.SOCKETS, batchStreams));
        }
        int blocks = services.size() > 1 ? 2 : 1;
        for (Map.Entry<Batch.Shape, Integer> shape : shapes) {
            List<List<Batch.Round>> rounds = new ArrayList<>();
            List<String> failures = new ArrayList<>();
            services.forEach(service -> {
                rounds.add(new ArrayList<>());
                failures.add("");
            });
            for (int block = 0; block < blocks; block++) {
                for (int s = 0; s < services.size(); s++) {
                    int measured = batchRounds / blocks + (block < batchRounds % blocks ? 1 : 0);
                    if (!failures.get(s).isEmpty() || deadline().isUp()) {
                        continue;
                    }
                    try {
                        rounds.get(s).addAll(batchRounds(services.get(s), shape.getKey(), shape.getValue(), block == 0 ? batchWarmup : 2,
                                measured, block));
                    } catch (InterruptedException e) {
                        throw e;
                    } catch (Exception e) {
                        Throwable cause = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null ? e.getCause() : e;
                        failures.set(s, "not measured: " + cause.getMessage()); // e.g. a baseline without the endpoint
                    }
                }
            }
            for (int s = 0; s < services.size(); s++) {
                rows.get(s).add(BatchRow.of(shape.getKey(), shape.getValue(), rounds.get(s), failures.get(s)));
            }
        }
        return rows;
    }

    /** With --profile: {@code row}'s shape once more, two rounds, then --batch-rounds rounds under async-profiler's CPU sampling. */
    private FlameGraphs.Graph profileBatch(Target service, BatchRow row, Report report) throws Exception {
        String file = "flame-cpu-" + row.name() + ".html";
        long pid = service.serverCpu().process().orElseThrow().pid();
        Batch.Shape shape = java.util.Arrays.stream(Batch.Shape.values()).filter(candidate -> row.name().startsWith(candidate.name + "-"))
                .findFirst().orElseThrow();
        Profiler[] profiler = new Profiler[1];
        try {
            batchRounds(service, shape, row.clients(), 2, batchRounds, 9, () -> profiler[0] = Profiler.start(pid, report.directory().resolve(file)));
        } catch (IOException e) {
            return FlameGraphs.Graph.failed(file, e.getMessage());
        } finally {
            if (profiler[0] != null) {
                Optional<String> failure = profiler[0].stop();
                if (failure.isPresent()) {
                    return FlameGraphs.Graph.failed(file, failure.get());
                }
            }
        }
        return profiler[0] == null ? FlameGraphs.Graph.failed(file, "the profiler did not start") : FlameGraphs.Graph.written(file);
    }

    /** What runs once the warm-up rounds are done, before the measured ones (e.g. attaching the profiler). */
    private interface AfterWarmUp {
        void run() throws IOException;
    }

    /** One block of rounds of one shape on {@code service}: {@code warmUp} rounds not kept, then {@code measured} rounds. */
    private List<Batch.Round> batchRounds(Target service, Batch.Shape shape, int clients, int warmUp, int measured, int block)
            throws Exception {
        return batchRounds(service, shape, clients, warmUp, measured, block, () -> { });
    }

    private List<Batch.Round> batchRounds(Target service, Batch.Shape shape, int clients, int warmUp, int measured, int block,
                                          AfterWarmUp afterWarmUp) throws Exception {
        long pid = service.serverCpu().process().orElseThrow().pid();
        ServerThreadsCpu cpu = new ServerThreadsCpu(pid);
        if (!cpu.available()) {
            throw new IllegalStateException("no /proc/" + pid + "/task to read the server's threads' CPU from (Linux only)");
        }
        String topic = "cost-" + shape.name + "-" + clients + "-" + block;
        List<Batch.Round> kept = new ArrayList<>();
        try (ServerMetrics metrics = new ServerMetrics(service.adminUri().orElseThrow());
             Batch batch = new Batch(shape, clients, service.applicationUri(), topic, metrics, cpu)) {
            long deadline = deadline().within(Duration.ofMinutes(5));
            batch.open(deadline);
            for (int r = 0; r < warmUp + measured; r++) {
                if (r == warmUp) {
                    afterWarmUp.run();
                }
                Batch.Round round = batch.round(deadline);
                if (r >= warmUp) {
                    kept.add(round);
                }
            }
        }
        return kept;
    }

    /** A fresh service (or the --url one) whose CPU and admin port this scenario can measure. */
    private Target openService(Report report, RequestLog requestLog) throws IOException, InterruptedException {
        Target service = open(report, Map.of("LOG_LEVEL", "WARN"), List.of(), requestLog);
        if (!service.serverCpu().measured() || service.adminUri().isEmpty()) {
            service.close();
            throw new IllegalStateException("cost needs the server's CPU and its admin port (/ping): let the tool start the service, "
                    + "or give --server-pid and --admin-url with --url");
        }
        return service;
    }

    /** Every endpoint, one after the other, while the deadline allows. */
    private List<Measurement> measureAll(Target service, Path h2load, Path body, Path batchBody, Report report)
            throws IOException, InterruptedException {
        List<Measurement> measurements = new ArrayList<>();
        for (Endpoint endpoint : endpoints(service, body, batchBody)) {
            if (deadline().isUp()) {
                measurements.add(Measurement.notLoaded(endpoint, "skipped: time limit reached"));
                continue;
            }
            measurements.add(measure(service, endpoint, h2load, report));
        }
        return measurements;
    }

    private void validate() {
        if (warmup.isNegative() || seconds.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("--warmup must be 0s or more and --seconds at least 1s, not " + warmup + " and " + seconds);
        }
        if (connections < 1 || polls < 1 || !(eventsPerSecond > 0 && eventsPerSecond <= 1000)) {
            throw new IllegalArgumentException("--connections and --polls must be at least 1 and --events-per-second above 0 and at most 1000");
        }
        if (compareRequestLog && (profiling() || target().runningService().isPresent() || target().requestLog() == RequestLog.off)) {
            throw new IllegalArgumentException("--compare-request-log starts the service twice, with its request log and without: "
                    + "it takes neither --url, --profile nor --request-log off");
        }
        if (batchWarmup < 0 || batchRounds < 1 || batchStreams < 0 || batchPolls.stream().anyMatch(size -> size < 1 || size > 15_000)
                || batchStreams > 15_000) {
            throw new IllegalArgumentException("--batch-warmup must be 0 or more, --batch-rounds at least 1, --batch-polls sizes and "
                    + "--batch-streams from 1 (0 for no streams) to 15000 (this tool holds a socket per client, under the open-file limit)");
        }
        if (baseline != null && (compareRequestLog || profiling() || target().runningService().isPresent())) {
            throw new IllegalArgumentException("--baseline starts this run's service and the baseline's: it takes neither "
                    + "--compare-request-log, --profile nor --url");
        }
        if (baseline != null && !Files.isRegularFile(baseline)) {
            throw new IllegalArgumentException("--baseline " + baseline + " is not a file");
        }
        // Start-up, then per endpoint its warm-up and stretch (and two profile stretches), each with a few seconds to spare;
        // per batch row its rounds (about a second and a half per thousand clients each) and its clients' connects.
        Duration perEndpoint = warmup.plus(seconds).plusSeconds(5).plus(profiling() ? seconds.multipliedBy(2).plusSeconds(10) : Duration.ZERO);
        long batchClients = batchPolls.stream().mapToLong(Integer::longValue).sum() + 2L * batchStreams;
        Duration batches = Duration.ofMillis((long) (batchClients * (1.5 * (batchWarmup + batchRounds + 2) + 2) + 10_000L * (batchPolls.size() + 2)));
        Duration once = perEndpoint.multipliedBy(PATTERNS.size() + 3).plus(compareRequestLog ? Duration.ZERO : batches).plusSeconds(60);
        Duration needed = once.multipliedBy(compareRequestLog || baseline != null ? 2 : 1);
        Duration left = Duration.ofNanos(deadline().nanos() - System.nanoTime());
        if (needed.compareTo(left) > 0) {
            throw new IllegalArgumentException("these options need about " + Durations.format(needed) + ", more than the "
                    + "--max-duration left (" + Durations.format(left) + "): give a larger --max-duration");
        }
    }

    /** /ping, each /work pattern, the publish, the batch publish and the long poll, in the order they are measured. */
    private List<Endpoint> endpoints(Target service, Path body, Path batchBody) {
        URI app = service.applicationUri();
        List<Endpoint> endpoints = new ArrayList<>();
        endpoints.add(new Endpoint("ping", "GET /ping (admin)", Endpoint.Kind.GET, service.adminUri().orElseThrow().resolve("/ping"),
                connections, Optional.empty(), List.of()));
        if (batchOnly) {
            return endpoints;
        }
        for (String pattern : PATTERNS) {
            String path = "/work/" + pattern + "?ms=0";
            endpoints.add(new Endpoint("work-" + pattern, "GET " + path, Endpoint.Kind.GET, app.resolve(path), connections, Optional.empty(),
                    List.of()));
        }
        String publish = "/events?topic=" + PUBLISH_TOPIC;
        endpoints.add(new Endpoint("events-publish", "POST " + publish + " (" + PUBLISH_BODY.length() + " bytes of JSON)",
                Endpoint.Kind.PUBLISH, app.resolve(publish), connections, Optional.of(body), List.of("Content-Type: application/json")));
        endpoints.add(new Endpoint("events-publish-batch", "POST /events/batch (" + BATCH_EVENTS + " events of "
                + PUBLISH_BODY.length() + " bytes of JSON each)", Endpoint.Kind.PUBLISH, app.resolve("/events/batch"), connections,
                Optional.of(batchBody), List.of("Content-Type: application/json")));
        String poll = "/events?topic=" + POLL_TOPIC + "&timeout=" + POLL_TIMEOUT_SECONDS;
        endpoints.add(new Endpoint("events-longpoll", "GET " + poll + " (" + polls + " parked, answered by " + Report.num(eventsPerSecond)
                + " events/s)", Endpoint.Kind.LONG_POLL, app.resolve(poll), polls, Optional.empty(), List.of()));
        return endpoints;
    }

    /** One endpoint: a first request to check it answers 2xx, then h2load's warm-up and measured stretch (events beside a long poll). */
    private Measurement measure(Target service, Endpoint endpoint, Path h2load, Report report) throws IOException, InterruptedException {
        Optional<String> refused = check(endpoint);
        if (refused.isPresent()) {
            return Measurement.notLoaded(endpoint, refused.get());
        }
        H2loadStretch.Spec spec = new H2loadStretch.Spec("h2load-" + endpoint.name(), endpoint.url(), endpoint.connections(), warmup, seconds,
                endpoint.body(), endpoint.headers());
        long deadline = deadline().within(warmup.plus(seconds).plusSeconds(30));
        if (endpoint.kind() != Endpoint.Kind.LONG_POLL) {
            return Measurement.loaded(endpoint, H2loadStretch.run(h2load, service.serverCpu().withoutJit(), spec, report.directory(), deadline));
        }
        try (EventPublisher publisher = startPublisher(service)) {
            H2loadStretch.Result run = H2loadStretch.run(h2load, service.serverCpu().withoutJit(), spec, report.directory(), deadline);
            long publishes = publisher.publishedBetween(run.startNanos(), run.endNanos());
            settle(publisher);
            return new Measurement(endpoint, Optional.of(run), "", publishes, publisher.failures(), publisher.longestGap().toMillis() / 1000.0);
        }
    }

    /** Publishes to the long poll's topic and waits for the first event to be taken (the topic then exists). */
    private EventPublisher startPublisher(Target service) throws InterruptedException {
        EventPublisher publisher = EventPublisher.start(service.applicationUri().resolve("/events?topic=" + POLL_TOPIC), eventsPerSecond);
        if (!publisher.awaitPublished(1, CHECK_TIMEOUT)) {
            String failure = publisher.lastFailure();
            publisher.close();
            throw new IllegalStateException("the first event for the long poll was not taken within " + Durations.format(CHECK_TIMEOUT)
                    + (failure.isEmpty() ? "" : ": " + failure));
        }
        return publisher;
    }

    /**
     * After h2load has gone, one more event answers the polls it left parked (under HTTP/1.1 the service notices a
     * closed connection only when it answers), so that nothing of this endpoint runs into the next stretch.
     */
    private static void settle(EventPublisher publisher) throws InterruptedException {
        publisher.awaitPublished(publisher.published() + 1, CHECK_TIMEOUT);
        Thread.sleep(200);
    }

    /** Empty when a first request is answered 2xx; else why the endpoint is not loaded. A long poll is not checked (it would park). */
    private static Optional<String> check(Endpoint endpoint) throws IOException, InterruptedException {
        if (endpoint.kind() == Endpoint.Kind.LONG_POLL) {
            return Optional.empty();
        }
        SimpleHttp.Answer answer;
        try (SimpleHttp http = SimpleHttp.http1()) {
            answer = endpoint.kind() == Endpoint.Kind.PUBLISH ? http.postJson(endpoint.url(), Files.readString(endpoint.body().orElseThrow()), CHECK_TIMEOUT)
                    : http.get(endpoint.url(), CHECK_TIMEOUT);
        }
        if (answer.status() >= 200 && answer.status() < 300) {
            return Optional.empty();
        }
        if (answer.status() == 501) {
            Matcher feature = JAVA_FEATURE.matcher(answer.body());
            return Optional.of("not available on " + (feature.find() ? "JDK " + feature.group(1) : "this JDK") + " (needs 21+)");
        }
        return Optional.of("not loaded: a first request was answered " + (answer.status() == 0 ? answer.failure() : answer.status() + " "
                + answer.body()));
    }

    /** The extra stretches of {@code --profile}: one under CPU sampling, one under allocation sampling, each {@code --seconds} long. */
    private FlameGraphs profile(Target service, Endpoint endpoint, Path h2load, Report report) throws IOException, InterruptedException {
        long pid = service.serverCpu().process().orElseThrow().pid();
        EventPublisher publisher = endpoint.kind() == Endpoint.Kind.LONG_POLL ? startPublisher(service) : null;
        try {
            FlameGraphs.Graph cpu = profiled(service, endpoint, h2load, report, "cpu", file -> Profiler.start(pid, file));
            FlameGraphs.Graph allocations = profiled(service, endpoint, h2load, report, "alloc", file -> Profiler.allocations(pid, file));
            return new FlameGraphs(endpoint, cpu, allocations);
        } finally {
            if (publisher != null) {
                settle(publisher);
                publisher.close();
            }
        }
    }

    /** How a profile stretch attaches its profiler, writing its flame graph to the file given. */
    private interface Attach {
        Profiler to(Path flameGraph) throws IOException;
    }

    private FlameGraphs.Graph profiled(Target service, Endpoint endpoint, Path h2load, Report report, String event, Attach attach)
            throws IOException, InterruptedException {
        String file = "flame-" + event + "-" + endpoint.name() + ".html";
        Profiler profiler;
        try {
            profiler = attach.to(report.directory().resolve(file));
        } catch (IOException e) {
            return FlameGraphs.Graph.failed(file, e.getMessage());
        }
        Optional<String> failure;
        try {
            H2loadStretch.Spec spec = new H2loadStretch.Spec("h2load-" + endpoint.name() + "-profile-" + event, endpoint.url(),
                    endpoint.connections(), Duration.ZERO, seconds, endpoint.body(), endpoint.headers());
            H2loadStretch.run(h2load, service.serverCpu(), spec, report.directory(), deadline().within(seconds.plusSeconds(30)));
        } finally {
            failure = profiler.stop();
        }
        return failure.map(words -> FlameGraphs.Graph.failed(file, words)).orElse(FlameGraphs.Graph.written(file));
    }

    /** The batch publish's body: {@link #BATCH_EVENTS} events of {@link #PUBLISH_BODY} on the publish's topic. */
    static String batchBody() {
        String event = "{\"topic\":\"" + PUBLISH_TOPIC + "\",\"data\":" + PUBLISH_BODY + "}";
        return "[" + String.join(",", Collections.nCopies(BATCH_EVENTS, event)) + "]";
    }
}
