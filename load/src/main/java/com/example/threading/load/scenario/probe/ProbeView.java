package com.example.threading.load.scenario.probe;

import com.example.threading.load.engine.CrossCheck;
import com.example.threading.load.engine.GcPauses;
import com.example.threading.load.engine.LatencySummary;
import com.example.threading.load.engine.Outcome;
import com.example.threading.load.engine.PhaseResult;
import com.example.threading.load.engine.Protocol;
import com.example.threading.load.report.Durations;
import com.example.threading.load.report.PhaseViews;
import com.example.threading.load.report.Report;
import com.example.threading.load.report.Table;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The probe scenario's report, built from its records as each step of the run ends: the warm-up note, a
 * rate-search table per protocol, then the headline table (the probe's percentiles per protocol), the
 * recorded phases and the standard plots.
 *
 * <p>Thread-safety: stateless; call it on the report's thread.
 */
final class ProbeView {

    private ProbeView() {
    }

    /** The warm-up is not in the tables: a note says how the probe fared. */
    static void warmup(Report report, Protocol protocol, Duration length, PhaseResult probe) {
        report.note(protocol.label() + " warm-up (" + Durations.format(length) + ", not in the tables): probe p99 " + Report.ms(probe.latencyMs().p99())
                + " ms, " + probe.count(Outcome.OK) + "/" + probe.sent() + " 2xx.");
    }

    /** The steps of one protocol's rate search. */
    static void rateSearch(Report report, Protocol protocol, double targetCpu, List<SearchStep> steps) {
        List<List<String>> rows = new ArrayList<>();
        for (SearchStep step : steps) {
            rows.add(List.of(protocol.label(), Integer.toString(step.step()), Integer.toString(step.ratePerSecond()),
                    Report.num(step.okPerSecond()), Report.num(step.serverCpuPercent())));
        }
        report.table(new Table("Rate search for " + protocol.label() + " (target " + Report.num(targetCpu) + " % server CPU)",
                List.of("protocol", "step", "rate/s", "2xx/s", "server CPU %"), rows));
    }

    /** One protocol's recording, as soon as it ends: its phases, and a note for each sender that fell behind its schedule. */
    static void recorded(Report report, ProtocolRun run, Duration length) {
        for (PhaseResult phase : run.recorded()) {
            PhaseViews.noteShortfall(report, phase, (long) phase.targetRatePerSecond() * length.toSeconds());
            report.phase(phase);
        }
    }

    /** The headline table, the recorded phases and the plots of every protocol. */
    static void present(Report report, String path, List<ProtocolRun> runs) throws IOException {
        List<List<String>> headline = new ArrayList<>();
        List<PhaseResult> recorded = new ArrayList<>();
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        for (ProtocolRun run : runs) {
            PhaseResult probe = run.probe();
            headline.add(List.of(run.protocol().label(), Integer.toString(run.loaderRate()), Report.num(run.loaderOkPerSecond()),
                    Long.toString(probe.sent()), Long.toString(probe.count(Outcome.OK)), Report.ms(probe.latencyMs().p50()),
                    Report.ms(probe.latencyMs().p90()), Report.ms(probe.latencyMs().p99()), Report.ms(probe.latencyMs().p999()),
                    Report.ms(probe.latencyMs().max()), Report.num(run.serverCpuPercent()), Report.num(run.recorded().get(run.recorded().size() - 1).toolCpuPercent())));
            recorded.addAll(run.recorded());
            histograms.putAll(run.histograms());
        }
        report.table(new Table("Probe latency under load (`" + path + "`)",
                List.of("protocol", "loader rate/s", "loader 2xx/s", "probe sent", "probe 2xx", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms",
                        "max ms", "server CPU %", "tool CPU %"), headline));
        crossCheck(report, runs);
        tailSources(report, runs);
        report.table(PhaseViews.table("Recorded phases", recorded));
        PhaseViews.plots(report, "", recorded, histograms, false);
    }

    /** The probe's percentiles beside h2load's, per protocol that ran the cross-check; nothing when none did. */
    static void crossCheck(Report report, List<ProtocolRun> runs) {
        List<List<String>> rows = new ArrayList<>();
        for (ProtocolRun run : runs) {
            if (run.crossCheck().isEmpty()) {
                continue;
            }
            CrossCheck.Result h2load = run.crossCheck().get();
            LatencySummary probe = run.probe().latencyMs();
            LatencySummary independent = h2load.latencyMs();
            rows.add(List.of(run.protocol().label(), "tool probe", Long.toString(run.probe().sent()), Long.toString(run.probe().count(Outcome.OK)),
                    Report.ms(probe.p50()), Report.ms(probe.p90()), Report.ms(probe.p99()), Report.ms(probe.p999()), Report.ms(probe.max()),
                    ratio(probe.p999(), independent.p999())));
            rows.add(List.of(run.protocol().label(), "h2load", Long.toString(h2load.requests()), Long.toString(h2load.ok()),
                    Report.ms(independent.p50()), Report.ms(independent.p90()), Report.ms(independent.p99()), Report.ms(independent.p999()),
                    Report.ms(independent.max()), "1"));
            if (h2load.ok() == 0) {
                report.note("--cross-check (" + run.protocol().label() + "): h2load logged no 2xx (exit " + h2load.exitCode() + "); it said: "
                        + h2load.output().lines().filter(line -> !line.isBlank()).limit(5).reduce((a, b) -> a + " / " + b).orElse("nothing"));
            }
        }
        if (!rows.isEmpty()) {
            report.table(new Table("Cross-check: the tool's probe against h2load, same service, same recording, same rate and path",
                    List.of("protocol", "client", "sent", "2xx", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", "p99.9 ÷ h2load's"), rows));
            report.note("Cross-check: h2load (nghttp2's C client, its own process) sent at the probe's rate beside it, over connections "
                    + "of 25 req/s each, and measured from when it really sent; its log is h2load-<protocol>-record.tsv. Where the probe's "
                    + "tail is far above h2load's, the difference is the tool's own (its GC, its threads' scheduling), not the server's.");
        }
    }

    /**
     * Where the probe's time went, per protocol: its latency, then each stage inside the tool (the stages add up to
     * the latency request by request, not percentile by percentile), the GC pauses of both JVMs during the
     * recording, and h2load's latency when it ran.
     */
    static void tailSources(Report report, List<ProtocolRun> runs) {
        List<List<String>> rows = new ArrayList<>();
        for (ProtocolRun run : runs) {
            String protocol = run.protocol().label();
            LatencySummary probe = run.probe().latencyMs();
            rows.add(List.of(protocol, "probe latency (intended send → answer)", Long.toString(probe.count()), Report.ms(probe.p50()),
                    Report.ms(probe.p99()), Report.ms(probe.p999()), Report.ms(probe.max()), "–"));
            run.tail().probeStages().forEach((stage, histogram) -> {
                LatencySummary latency = LatencySummary.of(histogram);
                rows.add(List.of(protocol, "probe " + stage, Long.toString(latency.count()), Report.ms(latency.p50()),
                        Report.ms(latency.p99()), Report.ms(latency.p999()), Report.ms(latency.max()), "–"));
            });
            rows.add(pauses(protocol, run.tail().probeProcessPauses().isPresent() ? "tool GC pauses (the loaders' JVM)" : "tool GC pauses",
                    run.tail().toolPauses()));
            run.tail().probeProcessPauses().ifPresent(pauses -> rows.add(pauses(protocol, "probe JVM GC pauses (--probe-process)", pauses)));
            rows.add(pauses(protocol, "service GC pauses", run.tail().servicePauses()));
            PhaseResult probePhase = run.probe();
            double tool = run.recorded().get(run.recorded().size() - 1).toolCpuPercent();
            double probeProcess = run.tail().probeProcessPauses().isPresent() ? probePhase.toolCpuPercent() : 0;
            double others = run.tail().machineCpuPercent() - run.serverCpuPercent() - tool - probeProcess;
            report.note("CPU during the " + protocol + " recording, in % of all " + com.example.threading.load.target.CpuClock.cores()
                    + " cores: the whole machine " + Report.num(run.tail().machineCpuPercent()) + " %, of which the server "
                    + Report.num(run.serverCpuPercent()) + " %, the tool " + Report.num(tool) + " %"
                    + (run.tail().probeProcessPauses().isPresent() ? ", the probe's own JVM " + Report.num(probeProcess) + " %" : "")
                    + ", and everything else (other processes on the machine" + (run.crossCheck().isPresent() ? ", h2load" : "")
                    + ", the kernel) " + Report.num(others) + " %.");
            run.crossCheck().ifPresent(h2load -> {
                LatencySummary latency = h2load.latencyMs();
                rows.add(List.of(protocol, "h2load latency (its own process)", Long.toString(latency.count()), Report.ms(latency.p50()),
                        Report.ms(latency.p99()), Report.ms(latency.p999()), Report.ms(latency.max()), "–"));
            });
        }
        report.table(new Table("Where the probe's time goes (recording)",
                List.of("protocol", "what", "n", "p50 ms", "p99 ms", "p99.9 ms", "max ms", "total ms"), rows));
        Map<String, Object> data = new LinkedHashMap<>();
        for (ProtocolRun run : runs) {
            Map<String, Object> sources = new LinkedHashMap<>();
            sources.put("toolPauses", run.tail().toolPauses());
            sources.put("servicePauses", run.tail().servicePauses());
            sources.put("machineCpuPercent", run.tail().machineCpuPercent());
            run.tail().probeProcessPauses().ifPresent(pauses -> sources.put("probeProcessPauses", pauses));
            Map<String, LatencySummary> stages = new LinkedHashMap<>();
            run.tail().probeStages().forEach((stage, histogram) -> stages.put(stage, LatencySummary.of(histogram)));
            sources.put("probeStagesMs", stages);
            run.crossCheck().ifPresent(h2load -> sources.put("h2loadMs", h2load.latencyMs()));
            data.put(run.protocol().label(), sources);
        }
        report.data("tailSources", data);
    }

    private static List<String> pauses(String protocol, String what, GcPauses pauses) {
        return List.of(protocol, what, Long.toString(pauses.count()), "–", "–", "–", Report.ms(pauses.maxMs()), Report.ms(pauses.totalMs()));
    }

    private static String ratio(double value, double reference) {
        return reference <= 0 ? "–" : Report.num(value / reference);
    }
}
