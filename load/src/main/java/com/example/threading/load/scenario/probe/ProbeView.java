package com.example.threading.load.scenario.probe;

import com.example.threading.load.engine.http.CrossCheck;
import com.example.threading.load.engine.http.Protocol;
import com.example.threading.load.engine.jvm.GcPauses;
import com.example.threading.load.engine.recording.LatencySummary;
import com.example.threading.load.engine.recording.Outcome;
import com.example.threading.load.engine.recording.PhaseResult;
import com.example.threading.load.report.Durations;
import com.example.threading.load.report.PhaseViews;
import com.example.threading.load.report.Report;
import com.example.threading.load.report.Table;
import com.example.threading.load.service.CpuClock;
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
 */
final class ProbeView {

    private ProbeView() {
    }

    /** The warm-up is not in the tables: a note says how the probe fared. */
    static void warmup(Report report, Protocol protocol, Duration length, PhaseResult probe) {
        report.note(protocol.label() + " warm-up (" + Durations.format(length) + ", not in the tables): probe p99 " + Report.ms(probe.latencyMs().p99())
                + " ms, " + probe.count(Outcome.OK) + "/" + probe.sent() + " 2xx.");
    }

    /** What the probe's own JVM is: its JDK, options, collectors and heap, as it reported them itself. */
    static void probeJvm(Report report, Protocol protocol, ProbeJvm jvm, ProbeProcess.Facts facts) {
        report.note(protocol.label() + ": the probe ran in a JVM of its own (pid " + facts.pid() + ", JDK " + facts.javaVersion() + ", "
                + jvm.collector() + "; its collectors: " + String.join(", ", facts.collectors()) + "; heap at most "
                + facts.maxHeapBytes() / (1024 * 1024) + " MB; scheduling priority nice " + facts.nice()
                + (facts.nice() == jvm.nice() ? "" : ", not the " + jvm.nice() + " asked: raising a priority needs root") + "), started with " + String.join(" ", facts.arguments())
                + "; its GC and safepoint log is probe-" + protocol.name().toLowerCase(java.util.Locale.ROOT) + "-gc.log.");
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
            long scheduled = (long) phase.targetRatePerSecond() * length.toSeconds();
            if (phase == run.probe() || run.loaders().inTool()) {
                PhaseViews.noteShortfall(report, phase, scheduled);
            } else {
                PhaseViews.noteShortfall(report, phase, scheduled, "h2load's connections, one request at a time each, waited for slow "
                        + "answers, or it was short of CPU; it measures from when it really sent, so the wait before a late send is not "
                        + "in its figures, and the unsent ones are missing");
            }
            report.phase(phase);
        }
    }

    /** The headline table, the recorded phases and the plots of every protocol. */
    static void present(Report report, String path, List<ProtocolRun> runs) throws IOException {
        List<PhaseResult> recorded = new ArrayList<>();
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        for (ProtocolRun run : runs) {
            recorded.addAll(run.recorded());
            histograms.putAll(run.histograms());
        }
        report.table(sideBySide(path, runs));
        report.note("Side by side: the probe measures from each request's intended send time; h2load loaders from when they really "
                + "sent it (a connection still waiting for an answer sends its next request late), the Java loaders from the intended "
                + "time. Loaders' CPU: the h2load processes', or the tool's own when the Java loaders ran in it. Where the probe's tail "
                + "is far above the loaders', the difference is on the probe's side (its JVM, its scheduling), not the server's.");
        crossCheck(report, runs);
        tailSources(report, runs);
        report.table(PhaseViews.table("Recorded phases", recorded));
        PhaseViews.plots(report, "", recorded, histograms, false);
    }

    /** Per protocol: the probe's percentiles, the loaders' (all loaders added up), the server's and the loaders' CPU, the probe JVM's pauses. */
    static Table sideBySide(String path, List<ProtocolRun> runs) {
        List<List<String>> rows = new ArrayList<>();
        for (ProtocolRun run : runs) {
            PhaseResult probe = run.probe();
            LatencySummary probeMs = probe.latencyMs();
            LatencySummary loadersMs = LatencySummary.of(run.loaders().latency());
            String pauses = run.tail().probeProcessPauses().map(gc -> gc.count() + " / " + Report.ms(gc.maxMs()))
                    .orElse("– (in the tool's JVM)");
            rows.add(List.of(run.protocol().label(), run.loaders().description(), Integer.toString(run.loaders().rate()),
                    Report.num(run.loaderOkPerSecond()), Report.num(run.serverCpuPercent()), Report.num(run.loaders().cpuPercent()),
                    probe.count(Outcome.OK) + " / " + probe.sent(),
                    Report.ms(probeMs.p50()), Report.ms(probeMs.p99()), Report.ms(probeMs.p999()), Report.ms(probeMs.max()),
                    Report.ms(loadersMs.p50()), Report.ms(loadersMs.p99()), Report.ms(loadersMs.p999()), Report.ms(loadersMs.max()),
                    ratio(probeMs.p999(), loadersMs.p999()), pauses));
        }
        return new Table("Probe latency under load, beside the loaders' (`" + path + "`)",
                List.of("protocol", "loaders", "loader rate/s", "loader 2xx/s", "server CPU %", "loaders CPU %", "probe 2xx / sent",
                        "probe p50 ms", "probe p99 ms", "probe p99.9 ms", "probe max ms", "loaders p50 ms", "loaders p99 ms",
                        "loaders p99.9 ms", "loaders max ms", "probe p99.9 ÷ loaders'", "probe JVM GC pauses (n / longest ms)"), rows);
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
            rows.add(pauses(protocol, run.loaders().inTool() ? "tool GC pauses (the Java loaders' JVM)" : "tool GC pauses",
                    run.tail().toolPauses()));
            run.tail().probeProcessPauses().ifPresent(pauses -> rows.add(pauses(protocol, "probe JVM GC pauses (--probe-process)", pauses)));
            rows.add(pauses(protocol, "service GC pauses", run.tail().servicePauses()));
            report.note(cpuNote(run));
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
            sources.put("loaders", Map.of("engine", run.loaders().description(), "rate", run.loaders().rate(), "cpuPercent", run.loaders().cpuPercent(),
                    "latencyMs", LatencySummary.of(run.loaders().latency())));
            run.tail().probeProcessPauses().ifPresent(pauses -> sources.put("probeProcessPauses", pauses));
            Map<String, LatencySummary> stages = new LinkedHashMap<>();
            run.tail().probeStages().forEach((stage, histogram) -> stages.put(stage, LatencySummary.of(histogram)));
            sources.put("probeStagesMs", stages);
            run.crossCheck().ifPresent(h2load -> sources.put("h2loadMs", h2load.latencyMs()));
            data.put(run.protocol().label(), sources);
        }
        report.data("tailSources", data);
    }

    /** The machine's CPU during one recording, split into the server, the tool, the loaders, the probe's JVM and the rest. */
    private static String cpuNote(ProtocolRun run) {
        double tool = run.recorded().get(run.recorded().size() - 1).toolCpuPercent();
        boolean ownJvm = run.tail().probeProcessPauses().isPresent();
        double probeJvm = ownJvm ? run.probe().toolCpuPercent() : 0;
        boolean javaLoaders = run.loaders().inTool();
        double h2loadLoaders = javaLoaders ? 0 : run.loaders().cpuPercent();
        double others = run.tail().machineCpuPercent() - run.serverCpuPercent() - tool - probeJvm - h2loadLoaders;
        return "CPU during the " + run.protocol().label() + " recording, in % of all " + CpuClock.cores() + " cores: the whole machine "
                + Report.num(run.tail().machineCpuPercent()) + " %, of which the server " + Report.num(run.serverCpuPercent()) + " %, the tool "
                + Report.num(tool) + " %" + (javaLoaders ? " (with the Java loaders)" : ", the h2load loaders " + Report.num(h2loadLoaders) + " %")
                + (ownJvm ? ", the probe's own JVM " + Report.num(probeJvm) + " %" : "")
                + ", and everything else (other processes on the machine" + (run.crossCheck().isPresent() ? ", the h2load cross-check" : "")
                + ", the kernel) " + Report.num(others) + " %.";
    }

    private static List<String> pauses(String protocol, String what, GcPauses pauses) {
        return List.of(protocol, what, Long.toString(pauses.count()), "–", "–", "–", Report.ms(pauses.maxMs()), Report.ms(pauses.totalMs()));
    }

    private static String ratio(double value, double reference) {
        return reference <= 0 ? "–" : Report.num(value / reference);
    }
}
