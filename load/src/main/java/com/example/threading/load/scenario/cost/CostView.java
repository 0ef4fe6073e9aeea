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
 * results.json's {@code cost} ({@link EndpointCost} rows).
 */
final class CostView {

    /** The table's title starts with this. */
    static final String TITLE = "Server CPU per request";

    private CostView() {
    }

    /**
     * The table of {@code measurements} (the first is /ping, the baseline), measured as {@code setting} says, with the
     * notes on the long poll, whose polls time out after {@code pollTimeoutSeconds}; and the flame graphs, if any.
     */
    static void present(Report report, String setting, List<Measurement> measurements, int pollTimeoutSeconds, List<FlameGraphs> flames) {
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
        report.data("cost", costs);
        ping.ifPresent(micros -> report.data("pingServerCpuMicrosPerRequest", micros));
        if (!flames.isEmpty()) {
            report.table(new Table("Flame graphs (async-profiler, in extra stretches after every measured one: not in the figures above)",
                    List.of("endpoint", "CPU", "allocations (bytes)"),
                    flames.stream().map(graphs -> List.of(graphs.endpoint().label(), graphs.cpu().cell(), graphs.allocations().cell())).toList()));
            report.data("flameGraphs", flames.stream().map(graphs -> List.of(graphs.endpoint().name(), graphs.cpu().file(),
                    graphs.allocations().file())).toList());
        }
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
