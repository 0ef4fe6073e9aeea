package com.example.threading.load.scenario.longpoll;

import com.example.threading.load.engine.http.GeneratedLoad;
import com.example.threading.load.engine.http.SimpleHttp;
import com.example.threading.load.engine.recording.HistogramLogs;
import com.example.threading.load.engine.recording.MergedPhase;
import com.example.threading.load.engine.recording.PhaseRecorder;
import com.example.threading.load.engine.recording.PhaseResult;
import com.example.threading.load.engine.recording.Progress;
import com.example.threading.load.engine.traffic.PollingClients;
import com.example.threading.load.report.Report;
import com.example.threading.load.scenario.ScenarioCommand;
import com.example.threading.load.service.Target;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The async-servlet experiment: C clients × I iterations of long polls against the AsyncContext endpoint
 * and the blocking one, events every tick, 200 Jetty worker threads. The best possible throughput is
 * C ÷ tick period (every client answered once per event). Measures into {@link EndpointPolls} records;
 * {@link LongPollView} presents them.
 */
@Command(name = "longpoll",
        description = "C clients x I long-poll iterations against /events and /events/blocking: latency, throughput, ratio to C / tick.")
public final class LongPollScenario extends ScenarioCommand {

    /** Appended to an endpoint measured on a service with {@code SERVER_VIRTUAL_THREADS=true}. */
    static final String VIRTUAL_THREADS_SUFFIX = " on virtual threads";

    @Option(names = "--clients", defaultValue = "2000", description = "Concurrent clients C (default: ${DEFAULT-VALUE})")
    int clients;

    @Option(names = "--iterations", defaultValue = "10", description = "Polls per client I (default: ${DEFAULT-VALUE})")
    int iterations;

    @Option(names = "--tick", defaultValue = "2s", description = "Event period given to the service (events.tickPeriod) (default: ${DEFAULT-VALUE})")
    Duration tick;

    @Option(names = "--threads", defaultValue = "200", description = "Jetty worker threads (server.maxThreads) (default: ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--endpoints", split = ",", defaultValue = "/events,/events/blocking", description = "Endpoints (default: ${DEFAULT-VALUE})")
    List<String> endpoints;

    @Option(names = "--poll-timeout", defaultValue = "30", description = "timeout=<seconds> of each poll (default: ${DEFAULT-VALUE})")
    int pollTimeout;

    @Option(names = "--wait-next", description = "Poll without after=<id>, so every request waits for the next event (the article's form)")
    boolean waitNext;

    @Option(names = "--on-virtual-threads", split = ",", description = "Endpoints measured once more, each on a fresh service "
            + "started with SERVER_VIRTUAL_THREADS=true (requests on virtual threads; the service's JDK must be 21+, see --java), "
            + "reported as '<endpoint> on virtual threads', e.g. /events/blocking (default: none)")
    List<String> onVirtualThreads = new ArrayList<>();


    @Option(names = "--endpoint-limit", defaultValue = "300s", description = "Hard limit per endpoint (default: ${DEFAULT-VALUE})")
    Duration endpointLimit;

    @Option(names = "--processes", defaultValue = "0", description = "Client processes: 0 = the clients run in this JVM up to "
            + ClientShares.CLIENTS_PER_PROCESS + ", and beyond that in ceil(C / " + ClientShares.CLIENTS_PER_PROCESS + ") child JVMs; "
            + "N >= 1 = in N child JVMs, each with its share of the clients, its own open files (one socket per client), CPU and GC "
            + "(default: ${DEFAULT-VALUE})")
    int processes;

    /** A run with this scenario's defaults, filled in by picocli. */
    public LongPollScenario() {
        super(Duration.ofSeconds(600));
    }

    @Override
    protected void run(Report report) throws Exception {
        double limit = LongPollView.limitPerSecond(clients, tick);
        report.configure("clients", clients).configure("iterations", iterations).configure("tick", tick)
                .configure("Jetty maxThreads", threads).configure("endpoints", endpoints).configure("poll timeout s", pollTimeout)
                .configure("cursor", waitNext ? "none (every poll waits for the next event)" : "after = last id seen")
                .configure("limit per endpoint", endpointLimit)
                .configure("client processes", ClientShares.processes(processes, clients) == 0 ? "none: the clients run in the tool's JVM"
                        : ClientShares.processes(processes, clients) + " child JVMs")
                .configure("on virtual threads", onVirtualThreads.isEmpty() ? "none"
                        : onVirtualThreads + " once more, each on a fresh service with SERVER_VIRTUAL_THREADS=true (the other "
                        + "endpoints' services run on platform threads; 'service overrides' below shows the last service started)");
        report.summary(clients + " clients each poll " + iterations + " times; an event arrives every " + tick.toMillis() + " ms, so at "
                + "best every client is answered once per event: " + Report.num(limit) + " req/s (C ÷ tick). The article (Tomcat, "
                + "200 workers, 2,000 × 10, 2 s): blocking 9,492 ms average, 195 req/s; AsyncContext 1,875 ms average, 939 req/s. "
                + "Latency is per request, send to answer (closed loop per client: no coordinated-omission correction applies).");
        Map<String, String> environment = Map.of("JETTY_MAX_THREADS", Integer.toString(threads));
        List<String> properties = new ArrayList<>(List.of("-Ddw.server.maxThreads=" + threads));
        if (target().configHas("events")) {
            properties.add("-Ddw.events.tickPeriod=" + tick.toMillis() + "ms");
        }
        List<EndpointPolls> measured = new ArrayList<>();
        // One service answers whether each endpoint exists, and then serves the first one that does; every
        // later endpoint gets a fresh service, so one endpoint's backlog never weighs on the next.
        Target spare = open(report, environment, properties);
        List<String> present = new ArrayList<>();
        try (SimpleHttp http = SimpleHttp.http1()) {
            for (String endpoint : endpoints) {
                SimpleHttp.Answer check = http.get(spare.applicationUri().resolve(endpoint + "?timeout=1"), Duration.ofSeconds(10));
                if (check.status() == 404 || check.status() == 405) {
                    report.note(endpoint + " answered " + check.status() + ": the endpoint does not exist in this build; skipped.");
                } else {
                    present.add(endpoint);
                }
            }
        } catch (RuntimeException | InterruptedException e) {
            spare.close();
            throw e;
        }
        for (String endpoint : present) {
            if (deadline().isUp()) {
                report.note("Time limit reached: " + endpoint + " skipped.");
                continue;
            }
            Target fresh = spare != null ? spare : open(report, environment, properties);
            spare = null;
            try (Target service = fresh) {
                EndpointPolls polls = poll(service, endpoint, endpoint, report);
                LongPollView.add(report, polls, endpointLimit);
                measured.add(polls);
            }
        }
        if (spare != null) {
            spare.close();
        }
        for (String endpoint : onVirtualThreads) {
            pollOnVirtualThreads(endpoint, environment, properties, report).ifPresent(measured::add);
        }
        LongPollView.present(report, measured, clients, iterations, tick, threads);
        LongPollView.clientProcesses(report, measured);
    }

    /** One endpoint on a fresh service whose requests run on virtual threads; empty (and a note) if that service did not start. */
    private Optional<EndpointPolls> pollOnVirtualThreads(String endpoint, Map<String, String> environment, List<String> properties,
                                                         Report report) throws Exception {
        String label = endpoint + VIRTUAL_THREADS_SUFFIX;
        if (deadline().isUp()) {
            report.note("Time limit reached: " + label + " skipped.");
            return Optional.empty();
        }
        if (target().runningService().isPresent()) {
            report.note(label + " skipped: with --url the tool cannot start a service with SERVER_VIRTUAL_THREADS=true.");
            return Optional.empty();
        }
        Map<String, String> virtual = new LinkedHashMap<>(environment);
        virtual.put("SERVER_VIRTUAL_THREADS", "true");
        Target fresh;
        try {
            fresh = open(report, virtual, properties);
        } catch (IllegalStateException | IOException e) {
            report.note(label + " skipped: the service did not start with SERVER_VIRTUAL_THREADS=true (it needs JDK 21+; "
                    + "see --java). " + firstLines(e.getMessage()));
            return Optional.empty();
        }
        try (Target service = fresh) {
            EndpointPolls polls = poll(service, endpoint, label, report);
            LongPollView.add(report, polls, endpointLimit);
            return Optional.of(polls);
        }
    }

    /** The first line of a start failure, and the service's own reason when its log has one. */
    private static String firstLines(String message) {
        String text = message == null ? "" : message;
        String first = text.lines().findFirst().orElse("");
        String reason = text.lines().filter(line -> line.contains("needs JDK 21+")).findFirst().orElse("");
        return reason.isEmpty() ? first : first + " " + reason.trim();
    }

    /** Every client's polls of one endpoint, until they are done or the endpoint's time limit; reported as {@code label}. */
    private EndpointPolls poll(Target service, String endpoint, String label, Report report) throws Exception {
        int children = ClientShares.processes(processes, clients);
        if (children > 0) {
            return pollFromProcesses(service, endpoint, label, children, report);
        }
        long limit = deadline().within(endpointLimit);
        PollingClients polling = new PollingClients(service.applicationUri().resolve(endpoint), clients, iterations, pollTimeout, waitNext);
        polling.connect(limit);
        PhaseRecorder recorder = new PhaseRecorder(label, report.directory().resolve(GeneratedLoad.fileName("longpoll" + label) + ".hlog"),
                service.serverCpu());
        Instant from = Instant.now();
        boolean complete;
        try (Progress progress = progress(label, (long) clients * iterations)) {
            complete = polling.poll(recorder, limit, progress);
        }
        PhaseResult phase = recorder.finish("HTTP/1.1", endpoint, 0);
        ClientProcess tool = new ClientProcess("tool (this JVM)", ProcessHandle.current().pid(), clients, polling.connections(),
                phase.toolCpuPercent(), toolPauses(from, Instant.now()));
        return new EndpointPolls(label, phase, recorder.histogram(), complete, polling.events(), polling.missed(), polling.noEvent(),
                polling.unparsable(), List.of(tool));
    }

    /** The same, with the clients split over {@code children} child JVMs, their results merged. */
    private EndpointPolls pollFromProcesses(Target service, String endpoint, String label, int children, Report report) throws Exception {
        long limit = deadline().within(endpointLimit);
        Optional<Long> serverPid = service.serverCpu().process().map(ProcessHandle::pid);
        List<PollingProcess> started = new ArrayList<>();
        try {
            int[] shares = ClientShares.split(clients, children);
            String prefix = GeneratedLoad.fileName("longpoll" + label);
            for (int i = 0; i < children; i++) {
                PollingProcess.Share share = new PollingProcess.Share(service.applicationUri().resolve(endpoint), shares[i], iterations,
                        pollTimeout, waitNext, serverPid, label);
                Duration left = Duration.ofNanos(Math.max(0, limit - System.nanoTime()));
                started.add(PollingProcess.start(share, left, left, report.directory(), prefix + "-clients-" + (i + 1)));
            }
            int connected = 0;
            for (PollingProcess process : started) {
                connected += process.awaitConnected(limit);
            }
            report.note(label + ": " + children + " client processes opened " + connected + " connections for " + clients + " clients.");
            started.forEach(PollingProcess::go);
            List<PollingProcess.Measured> measured = new ArrayList<>();
            try (Progress progress = progress(label, (long) clients * iterations)) {
                for (PollingProcess process : started) {
                    measured.add(process.finish(limit + TimeUnit.SECONDS.toNanos(30)));
                }
            }
            List<PhaseResult> parts = measured.stream().map(one -> one.written().result()).toList();
            PhaseResult phase = MergedPhase.merge(label, parts, report.directory(), report.directory().resolve(prefix + ".hlog"));
            Histogram histogram = HistogramLogs.sum(report.directory().resolve(phase.histogramLog()), 0).orElseGet(() -> new Histogram(3));
            List<ClientProcess> clientProcesses = new ArrayList<>();
            for (int i = 0; i < measured.size(); i++) {
                PollingProcess.Written written = measured.get(i).written();
                clientProcesses.add(new ClientProcess("clients-" + (i + 1), measured.get(i).pid(), shares[i], written.connections(),
                        written.result().toolCpuPercent(), measured.get(i).pauses()));
            }
            return new EndpointPolls(label, phase, histogram, measured.stream().allMatch(one -> one.written().complete()),
                    measured.stream().mapToLong(one -> one.written().events()).sum(), measured.stream().mapToLong(one -> one.written().missed()).sum(),
                    measured.stream().mapToLong(one -> one.written().noEvent()).sum(),
                    measured.stream().mapToLong(one -> one.written().unparsable()).sum(), clientProcesses);
        } finally {
            started.forEach(PollingProcess::close);
        }
    }
}
