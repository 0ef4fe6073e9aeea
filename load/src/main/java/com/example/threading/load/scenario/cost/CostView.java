package com.example.threading.load.scenario.cost;

import com.example.threading.load.engine.http.H2load;
import com.example.threading.load.engine.http.H2loadStretch;
import com.example.threading.load.report.Report;
import com.example.threading.load.report.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The cost scenario's report, built from {@link Measurement}s: one table with a row per endpoint (2xx answers per
 * second, the server's CPU per answer in µs, its ratio to /ping's, the server's CPU during the stretch), notes on
 * the rows that did not count and on the long poll's publishes, the flame graphs' table with {@code --profile}, and
 * results.json's {@code cost} ({@link EndpointCost} rows). With {@code --compare-request-log}, one such table per
 * service and a third with both ratios side by side ({@link #compareRequestLog}).
 */
final class CostView {

    /** The table's title starts with this. */
    static final String TITLE = "Server CPU per request";
    /** The side-by-side table's title starts with this. */
    static final String REQUEST_LOG_TITLE = "What the request log costs";
    /** results.json's figures of a run: its {@code data} entry. */
    static final String DATA = "cost";
    /** results.json's figures of the service without its request log, under {@code --compare-request-log}. */
    static final String DATA_WITHOUT_REQUEST_LOG = "costWithoutRequestLog";

    private CostView() {
    }

    /**
     * The table of {@code measurements} (the first is /ping, the baseline), measured as {@code setting} says, with the
     * notes on the long poll, whose polls time out after {@code pollTimeoutSeconds}; and the flame graphs, if any. The
     * rows go into results.json's {@code data.<dataName>} (/ping's µs also into {@code pingServerCpuMicrosPerRequest},
     * for {@link #DATA}), and are returned.
     */
    static List<EndpointCost> present(Report report, String setting, List<Measurement> measurements, int pollTimeoutSeconds,
                                      List<FlameGraphs> flames, String dataName) {
        Optional<Double> ping = measurements.isEmpty() || !measurements.get(0).counts() ? Optional.empty()
                : Optional.of(measurements.get(0).run().orElseThrow().serverCpuMicrosPerOk());
        if (ping.isEmpty()) {
            report.note("/ping, the baseline, was not measured in this run: there are no ratios.");
        }
        List<List<String>> rows = new ArrayList<>();
        List<EndpointCost> costs = new ArrayList<>();
        for (Measurement measurement : measurements) {
            EndpointCost cost = cost(measurement, ping);
            costs.add(cost);
            rows.add(row(measurement, cost));
            if (!measurement.notLoaded().isEmpty() || !EndpointCost.MEASURED.equals(cost.outcome())) {
                report.note(measurement.endpoint().label() + ": " + cost.outcome() + (measurement.run().isPresent()
                        ? " (h2load's output: " + measurement.run().get().spec().name() + ".txt)." : "."));
            }
            if (measurement.endpoint().kind() == Endpoint.Kind.LONG_POLL && measurement.run().isPresent()) {
                longPollNotes(report, measurement, pollTimeoutSeconds);
            }
        }
        report.table(new Table(TITLE + " (" + setting + ")",
                List.of("endpoint", "requests/s", "server CPU µs per request", "ratio to /ping", "server CPU %", "2xx answers"), rows));
        report.data(dataName, costs);
        if (DATA.equals(dataName)) {
            ping.ifPresent(micros -> report.data("pingServerCpuMicrosPerRequest", micros));
        }
        if (!flames.isEmpty()) {
            report.table(new Table("Flame graphs (async-profiler, in extra stretches after every measured one: not in the figures above)",
                    List.of("endpoint", "CPU", "allocations (bytes)"),
                    flames.stream().map(graphs -> List.of(graphs.endpoint().label(), graphs.cpu().cell(), graphs.allocations().cell())).toList()));
            report.data("flameGraphs", flames.stream().map(graphs -> List.of(graphs.endpoint().name(), graphs.cpu().file(),
                    graphs.allocations().file())).toList());
        }
        return costs;
    }

    /**
     * Both ratios to /ping side by side, endpoint by endpoint, {@code withLog} measured on a service with its request
     * log and {@code withoutLog} on one without, and the log's server CPU per request (the difference of the two): in
     * report.md and in results.json's {@code data.requestLogCost}. A row one of the runs did not count has no figures.
     */
    static void compareRequestLog(Report report, List<EndpointCost> withLog, List<EndpointCost> withoutLog) {
        List<List<String>> rows = new ArrayList<>();
        List<RequestLogCost> costs = new ArrayList<>();
        for (EndpointCost on : withLog) {
            Optional<EndpointCost> off = withoutLog.stream().filter(cost -> cost.name().equals(on.name())).findFirst();
            if (off.isEmpty() || !EndpointCost.MEASURED.equals(on.outcome()) || !EndpointCost.MEASURED.equals(off.get().outcome())) {
                String why = !EndpointCost.MEASURED.equals(on.outcome()) ? "request log on: " + on.outcome()
                        : off.map(cost -> "request log off: " + cost.outcome()).orElse("request log off: not measured");
                rows.add(List.of(on.endpoint(), "–", "–", "–", "–", why));
                continue;
            }
            RequestLogCost cost = new RequestLogCost(on.name(), on.ratioToPing(), off.get().ratioToPing(), on.serverCpuMicrosPerRequest(),
                    off.get().serverCpuMicrosPerRequest());
            costs.add(cost);
            rows.add(List.of(on.endpoint(), ratio(cost.ratioWithLog()), ratio(cost.ratioWithoutLog()), format("%.1f", cost.microsWithLog()),
                    format("%.1f", cost.microsWithoutLog()), format("%+.1f", cost.microsWithLog() - cost.microsWithoutLog())));
        }
        report.table(new Table(REQUEST_LOG_TITLE + " (the same endpoints on a service with config.yml's request log and on one without it)",
                List.of("endpoint", "ratio to /ping, log on", "ratio to /ping, log off", "server CPU µs, log on", "server CPU µs, log off",
                        "the log's µs per request"), rows));
        report.data("requestLogCost", costs);
    }

    /** One endpoint's figures with the request log and without it, as results.json holds them; a ratio is null without /ping. */
    record RequestLogCost(String name, Double ratioWithLog, Double ratioWithoutLog, double microsWithLog, double microsWithoutLog) {
    }

    private static String ratio(Double ratio) {
        return ratio == null ? "–" : format("%.2f", ratio);
    }

    /** The endpoint's figures, and what became of it. */
    private static EndpointCost cost(Measurement measurement, Optional<Double> ping) {
        Endpoint endpoint = measurement.endpoint();
        if (measurement.run().isEmpty()) {
            return new EndpointCost(endpoint.label(), endpoint.name(), measurement.notLoaded(), null, null, null, null, null, null, null,
                    null, null, null, List.of());
        }
        H2loadStretch.Result run = measurement.run().get();
        if (!run.measured()) {
            String why = run.summary().isEmpty() ? "h2load printed no counts" : "h2load did not announce both ends of its measured stretch";
            return new EndpointCost(endpoint.label(), endpoint.name(), "not measured: " + why + " (exit code " + run.exitCode() + ")", null,
                    null, null, null, null, null, null, null, null, null, run.command());
        }
        H2load.Summary summary = run.summary().orElseThrow();
        Long publishes = endpoint.kind() == Endpoint.Kind.LONG_POLL ? measurement.publishes() : null;
        if (!measurement.counts()) {
            String why = summary.all2xx() ? "no 2xx answers" : summary.problems() + ", of " + summary.done() + " requests";
            return new EndpointCost(endpoint.label(), endpoint.name(), "not counted: " + why, null, null, null, run.serverCpuPercent(),
                    summary.status2xx(), summary.non2xx(), summary.failed(), run.seconds(), run.serverCpuNanos() / 1000, publishes, run.command());
        }
        double micros = run.serverCpuMicrosPerOk();
        return new EndpointCost(endpoint.label(), endpoint.name(), EndpointCost.MEASURED, run.okPerSecond(), micros,
                ping.map(baseline -> micros / baseline).orElse(null), run.serverCpuPercent(), summary.status2xx(), 0L, 0L, run.seconds(),
                run.serverCpuNanos() / 1000, publishes, run.command());
    }

    private static List<String> row(Measurement measurement, EndpointCost cost) {
        String label = measurement.endpoint().label();
        if (EndpointCost.MEASURED.equals(cost.outcome())) {
            return List.of(label, Report.num(Math.rint(cost.requestsPerSecond())), format("%.1f", cost.serverCpuMicrosPerRequest()),
                    cost.ratioToPing() == null ? "–" : format("%.2f", cost.ratioToPing()), Report.num(cost.serverCpuPercent()),
                    Long.toString(cost.answers2xx()));
        }
        return List.of(label, "–", cost.outcome(), "–", cost.serverCpuPercent() == null ? "–" : Report.num(cost.serverCpuPercent()),
                cost.answers2xx() == null ? "–" : Long.toString(cost.answers2xx()));
    }

    /** How many publishes the long poll's figure includes, and whether a poll can have timed out (204: a 2xx without events). */
    private static void longPollNotes(Report report, Measurement measurement, int pollTimeoutSeconds) {
        H2loadStretch.Result run = measurement.run().orElseThrow();
        String label = measurement.endpoint().label();
        if (run.measured()) {
            long answers = run.summary().orElseThrow().status2xx();
            report.note(label + ": its server CPU includes the " + measurement.publishes() + " publishes (POST /events, "
                    + Report.num(measurement.publishes() / run.seconds()) + " per second, from one thread of the tool) made during its "
                    + "measured stretch, which answered its " + answers + " polls (" + Report.num(measurement.publishes() == 0 ? Double.NaN
                    : answers / (double) measurement.publishes()) + " answered polls per event); the publishes are not counted as requests.");
        }
        if (measurement.publishFailures() > 0) {
            report.note(label + ": " + measurement.publishFailures() + " publishes beside it failed or were not answered 2xx.");
        }
        if (!(measurement.longestPublishGapSeconds() < pollTimeoutSeconds)) {
            report.note(label + ": the longest wait between two answered publishes was " + Report.num(measurement.longestPublishGapSeconds())
                    + " s, not under the polls' timeout of " + pollTimeoutSeconds + " s: some 2xx answers may be timed-out polls (204, no events).");
        }
    }

    private static String format(String pattern, double value) {
        return String.format(Locale.ROOT, pattern, value);
    }
}
