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
    /** The batch table's title starts with this. */
    static final String BATCH_TITLE = "Server CPU per answer of one event to many waiting clients";
    /** The A/B table's title starts with this. */
    static final String BASELINE_TITLE = "This run's service beside the baseline";
    /** results.json's figures of the --baseline service. */
    static final String DATA_OF_BASELINE = "costOfBaseline";
    /** results.json's batch rows. */
    static final String BATCH_DATA = "batchCost";
    /** results.json's batch rows of the --baseline service. */
    static final String BATCH_DATA_OF_BASELINE = "batchCostOfBaseline";
    /** results.json's A/B rows. */
    static final String AB_DATA = "baselineComparison";

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

    /** /ping's µs per request among {@code costs} (the first row), when it was measured. */
    static Optional<Double> pingMicros(List<EndpointCost> costs) {
        return costs.isEmpty() || !EndpointCost.MEASURED.equals(costs.get(0).outcome()) ? Optional.empty()
                : Optional.of(costs.get(0).serverCpuMicrosPerRequest());
    }

    /** The batch rows' table, each with its ratio to {@code ping}'s µs; into results.json's {@code data.batchCost}. */
    static void presentBatches(Report report, List<BatchRow> rows, Optional<Double> ping) {
        if (rows.isEmpty()) {
            return;
        }
        report.table(new Table(BATCH_TITLE + " (median of the measured rounds; the server's CPU from just before the publish to "
                + "the last receipt, without its JIT compiler threads, divided by the clients)",
                List.of("shape", "rounds", "publish → last receipt ms", "server CPU µs per answer (min–max)", "ratio to /ping"),
                rows.stream().map(row -> batchCells(row, ping)).toList()));
        report.data(BATCH_DATA, rows);
        report.note("The batch rows time one event to many clients, each waiting on an HTTP/1.1 connection of its own, round by round: "
                + "a round publishes one event (POST /events) once the service counts every client (events.parked, events.sse.open, "
                + "events.websocket.open), and ends when every client has it. Like every figure here, their CPU leaves out the JIT "
                + "compiler threads, which on two cores still took a quarter of the service's CPU long after warm-up.");
    }

    /** With --profile, the batch rows' CPU flame graphs (extra rounds after the measured ones), linked. */
    static void presentBatchFlames(Report report, List<BatchRow> rows, List<FlameGraphs.Graph> flames) {
        if (flames.isEmpty()) {
            return;
        }
        List<List<String>> cells = new ArrayList<>();
        for (int i = 0; i < flames.size(); i++) {
            cells.add(List.of(rows.stream().filter(BatchRow::measured).toList().get(i).label(), flames.get(i).cell()));
        }
        report.table(new Table("Flame graphs of the batch rows (async-profiler's CPU sampling, in extra rounds after the measured ones)",
                List.of("shape", "CPU"), cells));
    }

    private static List<String> batchCells(BatchRow row, Optional<Double> ping) {
        if (!row.measured()) {
            return List.of(row.label(), Integer.toString(row.rounds()), "–", row.outcome(), "–");
        }
        return List.of(row.label(), Integer.toString(row.rounds()), format("%.1f", row.lastReceiptMs()),
                format("%.1f", row.serverCpuMicrosPerAnswer()) + " (" + format("%.1f", row.minMicros()) + "–" + format("%.1f", row.maxMicros()) + ")",
                ping.map(micros -> format("%.2f", row.serverCpuMicrosPerAnswer() / micros)).orElse("–"));
    }

    /**
     * {@code --baseline}: every endpoint's and batch row's ratio to /ping on this run's service and on the baseline's, side by
     * side, and this one's over the baseline's; into results.json's {@code data.baselineComparison}.
     */
    static void compareWithBaseline(Report report, List<EndpointCost> mine, List<EndpointCost> theirs, List<BatchRow> myBatches,
                                    List<BatchRow> theirBatches) {
        presentBatches(report, myBatches, pingMicros(mine));
        report.data(BATCH_DATA_OF_BASELINE, theirBatches);
        Optional<Double> myPing = pingMicros(mine);
        Optional<Double> theirPing = pingMicros(theirs);
        List<List<String>> rows = new ArrayList<>();
        List<BaselineComparison> comparisons = new ArrayList<>();
        for (int i = 0; i < mine.size(); i++) {
            EndpointCost a = mine.get(i);
            Optional<EndpointCost> b = theirs.stream().filter(cost -> cost.name().equals(a.name())).findFirst();
            boolean both = EndpointCost.MEASURED.equals(a.outcome()) && b.isPresent() && EndpointCost.MEASURED.equals(b.get().outcome());
            comparisons.add(compared(a.name(), a.endpoint(), both ? a.serverCpuMicrosPerRequest() : null,
                    both ? b.get().serverCpuMicrosPerRequest() : null, myPing, theirPing, rows));
        }
        for (BatchRow a : myBatches) {
            Optional<BatchRow> b = theirBatches.stream().filter(row -> row.name().equals(a.name())).findFirst();
            boolean both = a.measured() && b.isPresent() && b.get().measured();
            comparisons.add(compared(a.name(), a.label() + " (per answer)", both ? a.serverCpuMicrosPerAnswer() : null,
                    both ? b.get().serverCpuMicrosPerAnswer() : null, myPing, theirPing, rows));
        }
        report.table(new Table(BASELINE_TITLE + " (each ratio to /ping of the same service; this over baseline below 1 is cheaper now)",
                List.of("endpoint", "server CPU µs, this", "server CPU µs, baseline", "ratio to /ping, this", "ratio to /ping, baseline",
                        "this over baseline"), rows));
        report.data(AB_DATA, comparisons);
    }

    /** One row of the A/B table as results.json holds it; null where a side was not measured or /ping was not. */
    record BaselineComparison(String name, Double micros, Double baselineMicros, Double ratioToPing, Double baselineRatioToPing,
                              Double thisOverBaseline) {
    }

    private static BaselineComparison compared(String name, String label, Double micros, Double baselineMicros, Optional<Double> myPing,
                                               Optional<Double> theirPing, List<List<String>> rows) {
        if (micros == null || baselineMicros == null) {
            rows.add(List.of(label, "–", "–", "–", "–", "not measured on both"));
            return new BaselineComparison(name, micros, baselineMicros, null, null, null);
        }
        Double ratio = myPing.map(ping -> micros / ping).orElse(null);
        Double baselineRatio = theirPing.map(ping -> baselineMicros / ping).orElse(null);
        Double over = ratio != null && baselineRatio != null ? ratio / baselineRatio : null;
        rows.add(List.of(label, format("%.1f", micros), format("%.1f", baselineMicros), ratio(ratio), ratio(baselineRatio), ratio(over)));
        return new BaselineComparison(name, micros, baselineMicros, ratio, baselineRatio, over);
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
