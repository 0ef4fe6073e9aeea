package com.example.threading.load.scenario.topology;

import com.example.threading.load.engine.traffic.TopologyTraffic;
import com.example.threading.load.report.HistogramLogs;
import com.example.threading.load.report.Plots;
import com.example.threading.load.report.Report;
import com.example.threading.load.report.Table;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * The topology scenario's report, from its {@link DeploymentCheck}s and {@link FaultPhase}s: the deployment checks,
 * delivery and errors per phase, the balancer's timings, delivery latency per phase beside the direct baseline, the
 * goals judged, the percentile plot, one {@code delivery-<phase>.hlog} per phase and results.json's {@code topology}.
 */
final class TopologyView {

    /** The baseline straight to the instances (its phases' names start with it). */
    static final String DIRECT = "direct to the instances";
    /** The baseline through the balancer (its phases' names start with it). */
    static final String BALANCED = "through the balancer";
    private static final String RETRY_AFTER_503 = "503 + Retry-After";

    private TopologyView() {
    }

    /** Every table, the plot and the data; {@code interval} is the balancer's check interval in seconds. */
    static void present(Report report, List<DeploymentCheck> checks, List<FaultPhase> phases, double interval) throws IOException {
        report.table(new Table("Deployment checks (as documented, before any load)", List.of("check", "expected", "observed", "result"),
                checks.stream().map(c -> List.of(c.check(), c.expected(), c.observed(), c.passed() ? "pass" : "FAIL")).toList()));

        List<List<String>> delivery = new ArrayList<>();
        List<List<String>> latencyRows = new ArrayList<>();
        List<List<String>> rotationRows = new ArrayList<>();
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        Map<String, Object> data = new LinkedHashMap<>();
        Histogram direct = pooled(phases, DIRECT);
        Histogram balanced = pooled(phases, BALANCED);
        double directP99 = direct.getTotalCount() == 0 ? Double.NaN : direct.getValueAtPercentile(99) / 1000.0;
        int n = 0;
        histograms.put(DIRECT + " (both halves)", direct);
        histograms.put(BALANCED + " (both halves)", balanced);
        latencyRows.add(latencyRow(DIRECT + " (both halves)", direct, directP99));
        latencyRows.add(latencyRow(BALANCED + " (both halves)", balanced, directP99));
        for (FaultPhase phase : phases) {
            TopologyTraffic.Result t = phase.traffic();
            Histogram latency = t.deliveryMicros();
            if (phase.fault() != null) {
                histograms.put(phase.name(), latency);
            }
            HistogramLogs.write(report.directory().resolve("delivery-" + (++n) + "-" + phase.name().replaceAll("[^a-z0-9]+", "-") + ".hlog"),
                    "publish -> delivery latency, microseconds: " + phase.name(), latency);
            delivery.add(List.of(phase.name(), phase.applied(), Long.toString(t.published()), Long.toString(t.publishRetries()),
                    Long.toString(t.publishesAbandoned()), kinds(t.publishRefusals()), Integer.toString(t.followers().size()),
                    Long.toString(t.lost()), Long.toString(t.duplicated()), Long.toString(t.outOfOrder()), Long.toString(t.republished()),
                    kinds(t.pollErrors()), kinds(t.workOutcomes())));
            latencyRows.add(latencyRow(phase.name(), latency, directP99));
            for (RotationFigure figure : phase.rotation()) {
                rotationRows.add(List.of(phase.name(), figure.server(), figure.step(),
                        figure.seconds().isPresent() ? Report.num(figure.seconds().getAsDouble()) : "did not happen",
                        figure.judged() ? "≤ " + Report.num(figure.boundSeconds()) : "", figure.judged() ? (figure.withinBound() ? "yes" : "no") : ""));
            }
            data.put(phase.name(), phaseData(phase));
        }
        report.table(new Table("Delivery and errors per phase (lost / duplicated / out of order summed over followers; goal 0)",
                List.of("phase", "fault", "published", "publish retries", "publishes abandoned", "publish refusals", "followers", "lost",
                        "duplicated", "out of order", "republished", "poll errors", "/work outcomes"), delivery));
        report.table(new Table("The balancer's timings, seconds (check interval " + Report.num(interval) + " s; goal: within two)",
                List.of("phase", "server", "step", "seconds", "goal", "met"), rotationRows));
        report.table(new Table("Publish → delivery latency per phase, ms (from the intended send time of a publish's first attempt)",
                List.of("phase", "deliveries", "p50", "p90", "p99", "p99.9", "max", "p99 / direct p99"), latencyRows));
        List<List<String>> goals = goals(checks, phases, direct, balanced);
        report.table(new Table("Goals", List.of("goal", "figure", "met"), goals));
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("checkIntervalSeconds", interval);
        all.put("checks", checks.stream().map(c -> Map.of("check", c.check(), "observed", c.observed(), "passed", c.passed())).toList());
        all.put("phases", data);
        Map<String, Object> baselines = new LinkedHashMap<>();
        baselines.put("directP50Ms", direct.getValueAtPercentile(50) / 1000.0);
        baselines.put("directP99Ms", directP99);
        baselines.put("balancedP50Ms", balanced.getValueAtPercentile(50) / 1000.0);
        baselines.put("balancedP99Ms", balanced.getValueAtPercentile(99) / 1000.0);
        all.put("baselines", baselines);
        all.put("goals", goals.stream().map(g -> Map.of("goal", g.get(0), "figure", g.get(1), "met", g.get(2))).toList());
        report.data("topology", all);
        Plots.percentiles(report.directory().resolve("delivery-percentiles.png"), "Publish → delivery latency by phase", histograms);
        report.plot("delivery-percentiles.png", "Publish → delivery latency: the two baselines (each its two halves together) and each fault through the balancer.");
        report.note("A fault phase's latency includes the fault: a poll parked on an instance that lost Redis waits for its timeout "
                + "before the follower asks another instance; a publish refused while Redis is away is delivered after its retry.");
    }

    private static List<List<String>> goals(List<DeploymentCheck> checks, List<FaultPhase> phases, Histogram direct, Histogram balanced) {
        List<List<String>> goals = new ArrayList<>();
        long failedChecks = checks.stream().filter(c -> !c.passed()).count();
        goals.add(List.of("the deployment serves as documented", failedChecks + " of " + checks.size() + " checks failed", yes(failedChecks == 0)));
        long wrong = phases.stream().mapToLong(p -> p.traffic().lost() + p.traffic().duplicated() + p.traffic().outOfOrder()).sum();
        long worst = phases.stream().mapToLong(p -> p.traffic().worstFollower()).max().orElse(0);
        goals.add(List.of("0 events lost, duplicated or out of order for any follower, in every phase",
                wrong + " in all (worst follower: " + worst + ")", yes(wrong == 0)));
        List<RotationFigure> judged = phases.stream().flatMap(p -> p.rotation().stream()).filter(RotationFigure::judged).toList();
        for (String step : List.of("out of rotation", "back in rotation")) {
            List<RotationFigure> figures = judged.stream().filter(f -> f.step().startsWith(step)).toList();
            if (!figures.isEmpty()) {
                String values = figures.stream().map(f -> f.server() + " " + (f.seconds().isPresent() ? Report.num(f.seconds().getAsDouble()) + " s" : "never"))
                        .collect(Collectors.joining(", "));
                goals.add(List.of("a dead or Redis-less instance " + step + " within two check intervals (" + Report.num(figures.get(0).boundSeconds()) + " s)",
                        values, yes(figures.stream().allMatch(RotationFigure::withinBound))));
            }
        }
        phases.stream().filter(p -> p.fault() == Fault.REDIS_RESTART).findFirst().ifPresent(restart -> {
            Set<String> kinds = restart.traffic().publishRefusals().keySet();
            goals.add(List.of("publishes refused only with 503 + Retry-After while Redis is away",
                    kinds.isEmpty() ? "none refused" : kinds(restart.traffic().publishRefusals()),
                    yes(kinds.stream().allMatch(RETRY_AFTER_503::equals))));
        });
        if (direct.getTotalCount() > 0 && balanced.getTotalCount() > 0) {
            double directP99 = direct.getValueAtPercentile(99) / 1000.0;
            double p99 = balanced.getValueAtPercentile(99) / 1000.0;
            goals.add(List.of("delivery p99 through the balancer ≤ 2 × direct (both halves of each baseline)",
                    Report.ms(p99) + " ms vs " + Report.ms(directP99) + " ms direct", yes(p99 <= 2 * directP99)));
        }
        return goals;
    }

    /** The delivery latencies of every baseline phase whose name starts with {@code kind}, in one histogram. */
    private static Histogram pooled(List<FaultPhase> phases, String kind) {
        Histogram pooled = new Histogram(3_600_000_000L, 3);
        phases.stream().filter(p -> p.fault() == null && p.name().startsWith(kind)).forEach(p -> pooled.add(p.traffic().deliveryMicros()));
        return pooled;
    }

    private static List<String> latencyRow(String name, Histogram latency, double directP99) {
        double p99 = latency.getValueAtPercentile(99) / 1000.0;
        return List.of(name, Long.toString(latency.getTotalCount()), ms(latency, 50), ms(latency, 90), ms(latency, 99), ms(latency, 99.9),
                Report.ms(latency.getMaxValue() / 1000.0), Double.isNaN(directP99) || directP99 == 0 ? "" : Report.num(p99 / directP99));
    }

    private static Map<String, Object> phaseData(FaultPhase phase) {
        TopologyTraffic.Result t = phase.traffic();
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("fault", phase.fault() == null ? "" : phase.fault().option());
        values.put("applied", phase.applied());
        values.put("published", t.published());
        values.put("publishAttempts", t.publishAttempts());
        values.put("publishRetries", t.publishRetries());
        values.put("publishesAbandoned", t.publishesAbandoned());
        values.put("publishRefusals", t.publishRefusals());
        values.put("followers", t.followers().size());
        values.put("lost", t.lost());
        values.put("duplicated", t.duplicated());
        values.put("outOfOrder", t.outOfOrder());
        values.put("worstFollower", t.worstFollower());
        values.put("republished", t.republished());
        values.put("pollErrors", t.pollErrors());
        values.put("workOutcomes", t.workOutcomes());
        values.put("deliveries", t.deliveryMicros().getTotalCount());
        values.put("deliveryP50Ms", t.deliveryMicros().getValueAtPercentile(50) / 1000.0);
        values.put("deliveryP99Ms", t.deliveryMicros().getValueAtPercentile(99) / 1000.0);
        values.put("deliveryMaxMs", t.deliveryMicros().getMaxValue() / 1000.0);
        List<Map<String, Object>> rotation = new ArrayList<>();
        for (RotationFigure figure : phase.rotation()) {
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("server", figure.server());
            f.put("step", figure.step());
            f.put("seconds", figure.seconds().isPresent() ? figure.seconds().getAsDouble() : null);
            f.put("boundSeconds", figure.judged() ? figure.boundSeconds() : null);
            rotation.add(f);
        }
        values.put("rotation", rotation);
        return values;
    }

    private static String kinds(Map<String, Long> counts) {
        return counts.isEmpty() ? "0" : counts.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "));
    }

    private static String ms(Histogram latency, double percentile) {
        return Report.ms(latency.getValueAtPercentile(percentile) / 1000.0);
    }

    private static String yes(boolean met) {
        return met ? "yes" : "no";
    }
}
