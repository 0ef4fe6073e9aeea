package com.example.threading.load.scenario.longpoll;

import com.example.threading.load.engine.GeneratedLoad;
import com.example.threading.load.engine.LatencySummary;
import com.example.threading.load.engine.Outcome;
import com.example.threading.load.engine.PhaseRecorder;
import com.example.threading.load.engine.PhaseResult;
import com.example.threading.load.engine.PollingClients;
import com.example.threading.load.engine.Progress;
import com.example.threading.load.engine.SimpleHttp;
import com.example.threading.load.report.Durations;
import com.example.threading.load.report.PhaseViews;
import com.example.threading.load.report.Report;
import com.example.threading.load.scenario.ScenarioCommand;
import com.example.threading.load.target.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The async-servlet experiment: C clients × I iterations of long polls against the AsyncContext endpoint
 * and the blocking one, events every tick, 200 Jetty worker threads. The best possible throughput is
 * C ÷ tick period (every client answered once per event).
 */
@Command(name = "longpoll",
        description = "C clients x I long-poll iterations against /events and /events/blocking: latency, throughput, ratio to C / tick.")
public final class LongPollScenario extends ScenarioCommand {

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


    @Option(names = "--endpoint-limit", defaultValue = "300s", description = "Hard limit per endpoint (default: ${DEFAULT-VALUE})")
    Duration endpointLimit;

    /** A run with this scenario's defaults, filled in by picocli. */
    public LongPollScenario() {
        super(Duration.ofSeconds(600));
    }

    @Override
    protected void run(Report report) throws Exception {
        double limit = clients / (tick.toMillis() / 1000.0);
        report.configure("clients", clients).configure("iterations", iterations).configure("tick", tick)
                .configure("Jetty maxThreads", threads).configure("endpoints", endpoints).configure("poll timeout s", pollTimeout)
                .configure("cursor", waitNext ? "none (every poll waits for the next event)" : "after = last id seen")
                .configure("limit per endpoint", endpointLimit);
        report.summary(clients + " clients each poll " + iterations + " times; an event arrives every " + tick.toMillis() + " ms, so at "
                + "best every client is answered once per event: " + Report.num(limit) + " req/s (C ÷ tick). The article (Tomcat, "
                + "200 workers, 2,000 × 10, 2 s): blocking 9,492 ms average, 195 req/s; AsyncContext 1,875 ms average, 939 req/s. "
                + "Latency is per request, send to answer (closed loop per client: no coordinated-omission correction applies).");
        Map<String, String> environment = Map.of("JETTY_MAX_THREADS", Integer.toString(threads));
        List<String> properties = new ArrayList<>(List.of("-Ddw.server.maxThreads=" + threads));
        if (target().configHas("events")) {
            properties.add("-Ddw.events.tickPeriod=" + tick.toMillis() + "ms");
        }
        List<List<String>> rows = new ArrayList<>();
        List<PhaseResult> phases = new ArrayList<>();
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        Map<String, Object> data = new LinkedHashMap<>();
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
                PhaseRecorder recorder = new PhaseRecorder(endpoint, report.directory().resolve(GeneratedLoad.fileName("longpoll" + endpoint) + ".hlog"),
                        service.serverCpu());
                PollingClients polling = new PollingClients(service.applicationUri().resolve(endpoint), clients, iterations, pollTimeout, waitNext, recorder);
                boolean complete;
                try (Progress progress = progress(endpoint, (long) clients * iterations)) {
                    complete = polling.run(deadline().within(endpointLimit), progress);
                }
                PhaseResult phase = recorder.finish("HTTP/1.1", endpoint, 0);
                if (!complete) {
                    report.note(endpoint + ": the time limit (" + Durations.format(endpointLimit) + ") ended the run before every client finished; "
                            + phase.count(Outcome.UNANSWERED) + " polls were still open and counted unanswered.");
                }
                phases.add(phase);
                report.phase(phase);
                histograms.put(endpoint, recorder.histogram());
                LatencySummary latency = phase.latencyMs();
                long ok = phase.count(Outcome.OK);
                double throughput = ok / phase.durationSeconds();
                rows.add(List.of("`" + endpoint + "`", Long.toString(phase.sent()), Long.toString(ok), Long.toString(polling.noEvent()),
                        Long.toString(phase.count(Outcome.REJECTED_503)), Long.toString(phase.sent() - ok - phase.count(Outcome.REJECTED_503)),
                        Report.num(Math.round(latency.mean())), Report.num(Math.round(latency.min())), Report.num(Math.round(latency.p50())),
                        Report.num(Math.round(latency.p99())), Report.num(Math.round(latency.max())), Report.num(throughput),
                        Report.num(Math.round(1000.0 * throughput / limit) / 10.0), Report.num(phase.durationSeconds()),
                        Report.num(phase.serverCpuPercent())));
                data.put(endpoint, Map.of("events", polling.events(), "missed", polling.missed(), "noEvent204", polling.noEvent(),
                        "unparsable", polling.unparsable(), "throughput", throughput, "ratioToLimit", throughput / limit, "complete", complete));
                if (polling.unparsable() > 0) {
                    report.note(endpoint + ": " + polling.unparsable() + " answers were not the documented JSON.");
                }
            }
        }
        if (spare != null) {
            spare.close();
        }
        report.data("longpoll", data).data("limitPerSecond", limit);
        report.table(new Report.Table("Long-poll: " + clients + " clients × " + iterations + " iterations, tick " + tick.toMillis()
                + " ms, " + threads + " worker threads (limit " + Report.num(limit) + " req/s)",
                List.of("endpoint", "polls", "2xx", "of which 204", "503", "failed", "avg ms", "min ms", "p50 ms", "p99 ms", "max ms",
                        "req/s", "% of limit", "s", "server CPU %"), rows));
        if (!phases.isEmpty()) {
            report.table(PhaseViews.table("Phases in detail", phases));
            PhaseViews.plots(report, "", phases, histograms, false);
        }
    }
}
