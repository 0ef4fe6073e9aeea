package com.example.threading.load.scenario.limit;

import com.example.threading.load.engine.Outcome;
import com.example.threading.load.engine.PhaseResult;
import com.example.threading.load.engine.Protocol;
import com.example.threading.load.report.PhaseViews;
import com.example.threading.load.report.Plots;
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
 * The limit test's report, built from {@link LimitStep} records: a row per offered rate (what became of the
 * requests, in %), what became of the offered load and the latency against the offered rate
 * (limit-throughput.png, limit-latency.png), then the steps in detail with the standard plots laid end to end.
 *
 * <p>Thread-safety: stateless; call it on the report's thread.
 */
final class LimitView {

    private LimitView() {
    }

    /** One step, as soon as it is measured: its phase, and a note if the sender fell behind its schedule. */
    static void add(Report report, LimitStep step, Duration length) {
        report.phase(step.phase());
        PhaseViews.noteShortfall(report, step.phase(), step.offeredRate() * length.toSeconds());
    }

    /** The tables and plots of every measured step. */
    static void present(Report report, String path, Protocol protocol, Duration length, List<LimitStep> steps) throws IOException {
        List<PhaseResult> phases = new ArrayList<>();
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        List<List<String>> rows = new ArrayList<>();
        Map<String, List<double[]>> throughput = new LinkedHashMap<>();
        for (String series : List.of("offered", "2xx/s", "503/s", "reset/s", "timeout+unanswered/s")) {
            throughput.put(series, new ArrayList<>());
        }
        Map<String, List<double[]>> latency = new LinkedHashMap<>();
        latency.put("p50", new ArrayList<>());
        latency.put("p99", new ArrayList<>());
        latency.put("max", new ArrayList<>());
        for (LimitStep step : steps) {
            PhaseResult phase = step.phase();
            int rate = step.offeredRate();
            phases.add(phase);
            histograms.put(rate + "/s", step.latencies());
            double seconds = phase.durationSeconds();
            throughput.get("offered").add(new double[] {rate, phase.sent() / Math.max(seconds, length.toSeconds())});
            throughput.get("2xx/s").add(new double[] {rate, phase.okPerSecond()});
            throughput.get("503/s").add(new double[] {rate, phase.count(Outcome.REJECTED_503) / seconds});
            throughput.get("reset/s").add(new double[] {rate, phase.count(Outcome.RESET) / seconds});
            throughput.get("timeout+unanswered/s").add(new double[] {rate, step.timedOut() / seconds});
            latency.get("p50").add(new double[] {rate, phase.latencyMs().p50()});
            latency.get("p99").add(new double[] {rate, phase.latencyMs().p99()});
            latency.get("max").add(new double[] {rate, phase.latencyMs().max()});
            rows.add(List.of(Integer.toString(rate), Long.toString(phase.sent()), Report.num(phase.okPerSecond()),
                    pct(phase.count(Outcome.OK), phase.sent()), pct(phase.count(Outcome.REJECTED_503), phase.sent()),
                    pct(phase.count(Outcome.RESET), phase.sent()), pct(step.timedOut(), phase.sent()), pct(step.other(), phase.sent()),
                    Report.ms(phase.latencyMs().p50()), Report.ms(phase.latencyMs().p99()), Report.ms(phase.latencyMs().max()),
                    Report.num(phase.serverCpuPercent())));
        }
        report.table(new Table("Steps past capacity (" + protocol.label() + ", `" + path + "`)",
                List.of("offered/s", "sent", "2xx/s", "2xx %", "503 %", "reset %", "timeout %", "other %", "p50 ms", "p99 ms", "max ms", "server CPU %"),
                rows));
        report.table(PhaseViews.table("All steps in detail", phases));
        Plots.lines(report.directory().resolve("limit-throughput.png"), "Answers by kind against offered rate", "offered requests/s",
                "requests/s", throughput);
        report.plot("limit-throughput.png", "What became of the offered load at each step: 2xx, 503, resets and timeouts per second.");
        Plots.lines(report.directory().resolve("limit-latency.png"), "Latency of 2xx answers against offered rate", "offered requests/s",
                "ms", latency);
        report.plot("limit-latency.png", "p50, p99 and max latency (2xx, from the intended send) at each step.");
        PhaseViews.plots(report, "", phases, histograms, true);
    }

    /** {@code part} as a percentage of {@code whole} with one decimal, "–" when there is no whole. */
    static String pct(long part, long whole) {
        return whole == 0 ? "–" : Report.num(Math.round(1000.0 * part / whole) / 10.0);
    }
}
