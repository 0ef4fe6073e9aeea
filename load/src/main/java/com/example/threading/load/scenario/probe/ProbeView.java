package com.example.threading.load.scenario.probe;

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
                    Report.ms(probe.latencyMs().max()), Report.num(probe.serverCpuPercent()), Report.num(probe.toolCpuPercent())));
            recorded.addAll(run.recorded());
            histograms.putAll(run.histograms());
        }
        report.table(new Table("Probe latency under load (`" + path + "`)",
                List.of("protocol", "loader rate/s", "loader 2xx/s", "probe sent", "probe 2xx", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms",
                        "max ms", "server CPU %", "tool CPU %"), headline));
        report.table(PhaseViews.table("Recorded phases", recorded));
        PhaseViews.plots(report, "", recorded, histograms, false);
    }
}
