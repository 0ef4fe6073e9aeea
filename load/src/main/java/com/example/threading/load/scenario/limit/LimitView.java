package com.example.threading.load.scenario.limit;

import com.example.threading.load.engine.http.Protocol;
import com.example.threading.load.engine.recording.LatencySummary;
import com.example.threading.load.engine.recording.Outcome;
import com.example.threading.load.engine.recording.PhaseResult;
import com.example.threading.load.report.PhaseViews;
import com.example.threading.load.report.Plots;
import com.example.threading.load.report.Report;
import com.example.threading.load.report.Table;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The limit test's report, built from {@link LimitStep} records: a row per offered rate and admission mode, the
 * modes of one rate next to each other (what became of the requests, in %, and the latency of the 2xx and of the
 * 503 answers apart), what became of the offered load and the latency against the offered rate, one line per
 * mode (limit-throughput.png, limit-latency.png), then the steps in detail with the standard plots per mode.
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
    static void present(Report report, String path, Protocol protocol, List<LimitStep> steps) throws IOException {
        List<LimitStep> sideBySide = steps.stream()
                .sorted(Comparator.comparingInt(LimitStep::offeredRate).thenComparing(LimitStep::admission)).toList();
        List<List<String>> rows = new ArrayList<>();
        for (LimitStep step : sideBySide) {
            rows.add(row(step));
        }
        report.table(new Table("Admission control on and off at the same offered rates (" + protocol.label() + ", `" + path + "`)",
                List.of("offered/s", "admission", "sent", "2xx/s", "2xx %", "503 %", "reset %", "timeout %", "unanswered %",
                        "other %", "2xx p50 ms", "2xx p99 ms", "503 p50 ms", "503 p99 ms", "server CPU %"),
                rows));
        report.table(PhaseViews.table("All steps in detail", steps.stream().map(LimitStep::phase).toList()));
        plotAgainstRate(report, steps);
        for (AdmissionMode mode : steps.stream().map(LimitStep::admission).distinct().toList()) {
            List<LimitStep> ofMode = steps.stream().filter(step -> step.admission() == mode).toList();
            Map<String, Histogram> histograms = new LinkedHashMap<>();
            ofMode.forEach(step -> histograms.put(step.offeredRate() + "/s", step.latencies()));
            PhaseViews.plots(report, "admission-" + mode.label() + "-", ofMode.stream().map(LimitStep::phase).toList(), histograms, true);
        }
    }

    private static List<String> row(LimitStep step) {
        PhaseResult phase = step.phase();
        long sent = phase.sent();
        LatencySummary ok = phase.latencyMs();
        LatencySummary rejected = step.rejectedLatencyMs();
        return List.of(Integer.toString(step.offeredRate()), step.admission().label(), Long.toString(sent),
                Report.num(phase.okPerSecond()), pct(phase.count(Outcome.OK), sent), pct(phase.count(Outcome.REJECTED_503), sent),
                pct(phase.count(Outcome.RESET), sent), pct(phase.count(Outcome.TIMEOUT), sent),
                pct(phase.count(Outcome.UNANSWERED), sent), pct(step.other(), sent),
                ms(ok, ok.p50()), ms(ok, ok.p99()), ms(rejected, rejected.p50()), ms(rejected, rejected.p99()),
                Report.num(phase.serverCpuPercent()));
    }

    private static void plotAgainstRate(Report report, List<LimitStep> steps) throws IOException {
        Map<String, List<double[]>> throughput = new LinkedHashMap<>();
        Map<String, List<double[]>> latency = new LinkedHashMap<>();
        List<double[]> offered = new ArrayList<>();
        throughput.put("offered", offered);
        for (LimitStep step : steps) {
            PhaseResult phase = step.phase();
            double rate = step.offeredRate();
            double seconds = phase.durationSeconds();
            String mode = " (admission " + step.admission().label() + ")";
            if (step.admission() == steps.get(0).admission()) {
                offered.add(new double[] {rate, rate});
            }
            series(throughput, "2xx/s" + mode).add(new double[] {rate, phase.okPerSecond()});
            series(throughput, "503/s" + mode).add(new double[] {rate, phase.count(Outcome.REJECTED_503) / seconds});
            series(throughput, "reset+timeout+unanswered/s" + mode).add(new double[] {rate, step.failed() / seconds});
            series(latency, "2xx p50" + mode).add(new double[] {rate, phase.latencyMs().p50()});
            series(latency, "2xx p99" + mode).add(new double[] {rate, phase.latencyMs().p99()});
            series(latency, "503 p99" + mode).add(new double[] {rate, step.rejectedLatencyMs().p99()});
        }
        Plots.lines(report.directory().resolve("limit-throughput.png"), "Answers by kind against offered rate", "offered requests/s",
                "requests/s", throughput);
        report.plot("limit-throughput.png", "What became of the offered load at each step, per admission mode: 2xx, 503, and "
                + "resets + client timeouts + unanswered per second (what the sender managed to send is in the table's sent column).");
        Plots.lines(report.directory().resolve("limit-latency.png"), "Latency against offered rate (log scale)", "offered requests/s",
                "ms", latency, true);
        report.plot("limit-latency.png", "p50 and p99 of the 2xx answers and p99 of the 503 answers at each step, per admission mode "
                + "(from the intended send; log scale; a mode without 503s has no 503 line).");
    }

    private static List<double[]> series(Map<String, List<double[]>> all, String name) {
        return all.computeIfAbsent(name, key -> new ArrayList<>());
    }

    private static String ms(LatencySummary latency, double value) {
        return latency.count() == 0 ? "–" : Report.ms(value);
    }

    /** {@code part} as a percentage of {@code whole} with one decimal, "–" when there is no whole. */
    static String pct(long part, long whole) {
        return whole == 0 ? "–" : Report.num(Math.round(1000.0 * part / whole) / 10.0);
    }
}
