package com.example.threading.load.report;

import com.example.threading.load.engine.recording.IntervalSample;
import com.example.threading.load.engine.recording.LatencySummary;
import com.example.threading.load.engine.recording.Outcome;
import com.example.threading.load.engine.recording.PhaseResult;
import com.example.threading.load.service.CpuClock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The standard table and plots of a set of load phases, built from their {@link PhaseResult} records.
 */
public final class PhaseViews {

    private PhaseViews() {
    }

    /** One row per phase: what was sent, how every request ended, throughput, latency and CPU. */
    public static Table table(String title, List<PhaseResult> phases) {
        List<String> header = List.of("phase", "protocol", "path", "rate/s", "s", "sent", "2xx", "503", "501", "reset",
                "timeout", "unanswered", "other", "2xx/s", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", "server CPU %", "tool CPU %");
        List<List<String>> rows = new ArrayList<>();
        for (PhaseResult phase : phases) {
            LatencySummary latency = phase.latencyMs();
            long other = phase.count(Outcome.OTHER_STATUS) + phase.count(Outcome.OTHER_FAILURE) + phase.count(Outcome.CLIENT_REJECTED);
            rows.add(List.of(phase.name(), phase.protocol(), "`" + phase.path() + "`",
                    phase.targetRatePerSecond() > 0 ? Integer.toString(phase.targetRatePerSecond()) : "–",
                    Report.num(phase.durationSeconds()), Long.toString(phase.sent()), Long.toString(phase.count(Outcome.OK)),
                    Long.toString(phase.count(Outcome.REJECTED_503)), Long.toString(phase.count(Outcome.UNAVAILABLE_501)),
                    Long.toString(phase.count(Outcome.RESET)), Long.toString(phase.count(Outcome.TIMEOUT)),
                    Long.toString(phase.count(Outcome.UNANSWERED)), Long.toString(other), Report.num(phase.okPerSecond()),
                    ms(latency, latency.p50()), ms(latency, latency.p90()), ms(latency, latency.p99()), ms(latency, latency.p999()),
                    ms(latency, latency.max()), Report.num(phase.serverCpuPercent()), Report.num(phase.toolCpuPercent())));
        }
        return new Table(title, header, rows);
    }

    /**
     * Says so when a fixed-rate sender sent clearly fewer requests than its schedule (CPU-starved client): the
     * late ones are measured from their intended time, but the ones never sent are missing from the numbers.
     */
    public static void noteShortfall(Report report, PhaseResult phase, long scheduled) {
        noteShortfall(report, phase, scheduled, "the client was short of CPU; the latency of those it sent late is measured from their "
                + "intended send time, the unsent ones are missing");
    }

    /** The same, with the reason and its consequence in the sender's own terms ({@code why}). */
    public static void noteShortfall(Report report, PhaseResult phase, long scheduled, String why) {
        if (phase.sent() < 0.9 * scheduled) {
            report.note(phase.name() + ": the sender fell behind its schedule and sent " + phase.sent() + " of about " + scheduled
                    + " requests (" + why + "). Treat this phase's figures with suspicion.");
        }
    }

    private static String ms(LatencySummary latency, double value) {
        return latency.count() == 0 ? "–" : Report.ms(value);
    }

    /**
     * percentiles.png, throughput.png, latency.png and cpu.png for these phases, added to the report; phases that
     * ran one after the other ({@code sequential}) are laid end to end on the time axis, the others overlap.
     */
    public static void plots(Report report, String prefix, List<PhaseResult> phases, Map<String, Histogram> histograms, boolean sequential)
            throws IOException {
        String percentiles = prefix + "percentiles.png";
        Plots.percentiles(report.directory().resolve(percentiles), "Latency by percentile (2xx, from intended send)", histograms);
        report.plot(percentiles, "Latency distribution by percentile, one line per phase (log scale towards the tail).");

        Map<String, List<double[]>> throughput = new LinkedHashMap<>();
        Map<String, List<double[]>> latency = new LinkedHashMap<>();
        Map<String, List<double[]>> cpu = new LinkedHashMap<>();
        double offset = 0;
        for (PhaseResult phase : phases) {
            double start = offset;
            if (sequential) {
                offset += phase.durationSeconds();
            }
            List<double[]> ok = new ArrayList<>();
            List<double[]> errors = new ArrayList<>();
            List<double[]> p50 = new ArrayList<>();
            List<double[]> p99 = new ArrayList<>();
            List<double[]> server = new ArrayList<>();
            for (IntervalSample sample : phase.intervals()) {
                // A last interval cut short by the end of the phase gives a noisy rate: leave it out.
                if (sample.lengthSeconds() >= 0.5) {
                    double perSecond = 1.0 / sample.lengthSeconds();
                    ok.add(new double[] {start + sample.atSeconds(), sample.ok() * perSecond});
                    errors.add(new double[] {start + sample.atSeconds(), (sample.rejected503() + sample.otherErrors()) * perSecond});
                }
                if (sample.ok() > 0) {
                    p50.add(new double[] {start + sample.atSeconds(), sample.p50()});
                    p99.add(new double[] {start + sample.atSeconds(), sample.p99()});
                }
                server.add(new double[] {start + sample.atSeconds(), sample.serverCpuPercent()});
            }
            throughput.put(phase.name() + " 2xx/s", ok);
            if (errors.stream().anyMatch(point -> point[1] > 0)) {
                throughput.put(phase.name() + " errors/s", errors);
            }
            latency.put(phase.name() + " p50", p50);
            latency.put(phase.name() + " p99", p99);
            if (server.stream().noneMatch(point -> Double.isNaN(point[1]))) {
                cpu.put(phase.name(), server);
            }
        }
        String throughputFile = prefix + "throughput.png";
        Plots.overTime(report.directory().resolve(throughputFile), "Answers per second", "requests/s", throughput);
        report.plot(throughputFile, "Throughput over time (2xx answers, and errors when there were any), per second.");
        String latencyFile = prefix + "latency.png";
        Plots.overTime(report.directory().resolve(latencyFile), "Latency over time (2xx)", "ms", latency);
        report.plot(latencyFile, "p50 and p99 latency of each one-second interval.");
        if (!cpu.isEmpty()) {
            String cpuFile = prefix + "cpu.png";
            Plots.overTime(report.directory().resolve(cpuFile), "Server CPU (% of all cores)", "%", cpu);
            report.plot(cpuFile, "The server process's CPU per second, in % of all " + CpuClock.cores() + " cores.");
        }
    }
}
