package com.example.threading.load.scenario.soak;

import com.example.threading.load.engine.recording.LatencySummary;
import com.example.threading.load.engine.recording.PhaseResult;
import com.example.threading.load.report.PhaseViews;
import com.example.threading.load.report.Plots;
import com.example.threading.load.report.Report;
import com.example.threading.load.report.Table;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * The soak's report: the verdict table (per series: first and last minute, slope, projected growth, flat or
 * growing), the per-minute table, two plots of the minutes (heap; threads, files and polls), then the standard
 * phase table and plots of the mix. The heap series judged is the live heap after each forced full GC; only when
 * none was forced is it the lowest heap a collection left (under G1 that includes old garbage waiting for the next
 * concurrent marking cycle, so "growing" there is not proof of live growth).
 */
final class SoakView {

    /** A per-minute series, its unit and what counts as noise in it. */
    record Series(String name, String unit, double slack, ToDoubleFunction<MinuteSample> value) {
    }

    /**
     * Noise in the live heap after a full GC (MB): what the service allocates between the collection and the read
     * of /metrics (well under 1 MB at a thousand requests a second) plus the requests, buffers and polls alive at
     * that instant, which vary with the load but do not accumulate.
     */
    static final double LIVE_HEAP_SLACK_MB = 4;

    /**
     * Noise in the lowest heap a collection left (MB), used only when no full GC was forced: young collections
     * leave old garbage behind until the next marking cycle, so this series swings by tens of MB without a leak.
     */
    static final double LOWEST_HEAP_SLACK_MB = 8;

    /** Where the warm-up ends for the settled latency table: the verdict's "minute 2 on". */
    static final double SETTLED_FROM_SECONDS = 60;

    private SoakView() {
    }

    /** The series the verdict judges: the live heap when full GCs were forced, else the lowest heap after a collection. */
    static List<Series> series(boolean forcedGc) {
        List<Series> series = new ArrayList<>(List.of(
                forcedGc ? new Series("live heap after full GC", "MB", LIVE_HEAP_SLACK_MB, MinuteSample::liveHeapAfterFullGcMb)
                        : new Series("heap after GC (lowest; no full GC forced)", "MB", LOWEST_HEAP_SLACK_MB, MinuteSample::lowestHeapAfterGcMb),
                new Series("threads", "threads", 10, MinuteSample::threadsMax),
                new Series("open files", "files", 20, MinuteSample::openFilesMax)));
        for (String gauge : SoakScenario.POLL_GAUGES) {
            series.add(new Series(gauge, "polls", 20, minute -> minute.gaugesMax().getOrDefault(gauge, Double.NaN)));
        }
        return series;
    }

    static void present(Report report, List<MinuteSample> minutes, Optional<ForcedGcs> forcedGcs, List<PhaseResult> phases,
                        Map<String, Histogram> histograms) throws IOException {
        List<List<String>> verdicts = new ArrayList<>();
        List<String> growing = new ArrayList<>();
        Map<String, Object> data = new LinkedHashMap<>();
        for (Series series : series(forcedGcs.isPresent())) {
            Growth growth = Growth.of(minutes.stream().map(minute -> series.value().applyAsDouble(minute)).toList(), series.slack());
            verdicts.add(List.of(series.name(), series.unit(), Report.num(growth.first()), Report.num(growth.last()),
                    Report.num(growth.slopePerMinute()), Report.num(growth.projected()), Report.num(series.slack()), growth.verdict()));
            if (growth.verdict().equals("growing")) {
                growing.add(series.name());
            }
            data.put(series.name(), growth);
        }
        report.table(new Table("Soak verdict (minute 2 on; growing = projected growth above the slack and 10 % of the mean)",
                List.of("series", "unit", "minute 2", "last minute", "slope/min", "projected growth", "slack", "verdict"), verdicts));
        report.note(minutes.size() < 4 ? "Soak verdict: too short to judge (" + minutes.size() + " minute(s); at least 4 are needed)."
                : growing.isEmpty() ? "Soak verdict: flat — no series grew beyond its noise over " + minutes.size() + " minutes."
                : "Soak verdict: GROWING — " + String.join(", ", growing) + " (see the verdict table and soak-*.png).");
        forcedGcs.ifPresent(forced -> report.note(forced.note()));
        forcedGcs.ifPresent(forced -> report.data("soakForcedGcs", forced.readings()));

        List<List<String>> rows = new ArrayList<>();
        for (MinuteSample minute : minutes) {
            List<String> row = new ArrayList<>(List.of(Integer.toString(minute.minute()), Report.num(minute.liveHeapAfterFullGcMb()),
                    Report.num(minute.oldGenAfterFullGcMb()), Report.num(minute.lowestHeapAfterGcMb()), Report.num(minute.heapUsedMaxMb()),
                    Report.num(minute.threadsMax()), Report.num(minute.openFilesMax())));
            SoakScenario.POLL_GAUGES.forEach(gauge -> row.add(Report.num(minute.gaugesMax().getOrDefault(gauge, Double.NaN))));
            row.add(Report.num(minute.serverCpuPercent()));
            rows.add(row);
        }
        List<String> header = new ArrayList<>(List.of("minute", "live heap MB (after forced full GC)", "old gen MB (after forced full GC)",
                "heap after young/mixed GC MB (lowest; info only)", "heap used MB (peak)", "threads (peak)", "open files (peak)"));
        SoakScenario.POLL_GAUGES.forEach(gauge -> header.add(gauge + " (peak)"));
        header.add("server CPU %");
        report.table(new Table("Per minute", header, rows));
        report.data("soakMinutes", minutes);
        report.data("soakVerdict", data);

        Map<String, List<double[]>> heap = new LinkedHashMap<>();
        if (forcedGcs.isPresent()) {
            heap.put("live heap (after forced full GC)", points(minutes, MinuteSample::liveHeapAfterFullGcMb));
        }
        heap.put("heap after young/mixed GC (lowest)", points(minutes, MinuteSample::lowestHeapAfterGcMb));
        heap.put("heap used (peak)", points(minutes, MinuteSample::heapUsedMaxMb));
        Plots.lines(report.directory().resolve("soak-heap.png"), "Heap per minute", "minute", "MB", heap);
        report.plot("soak-heap.png", "The service's heap per minute: the live heap right after a forced full GC (what a leak raises; "
                + "when forced), the lowest heap any other collection left (includes old garbage waiting for G1's next marking cycle) "
                + "and the peak used.");
        Map<String, List<double[]>> resources = new LinkedHashMap<>();
        resources.put("threads (peak)", points(minutes, MinuteSample::threadsMax));
        resources.put("open files (peak)", points(minutes, MinuteSample::openFilesMax));
        for (String gauge : SoakScenario.POLL_GAUGES) {
            resources.put(gauge + " (peak)", points(minutes, minute -> minute.gaugesMax().getOrDefault(gauge, Double.NaN)));
        }
        Plots.lines(report.directory().resolve("soak-resources.png"), "Threads, files and polls per minute", "minute", "count", resources);
        report.plot("soak-resources.png", "Peak threads, open files, parked polls (/events) and waiting polls (/events/blocking) per minute.");

        phases.forEach(report::phase);
        report.table(PhaseViews.table("The mix", phases));
        settled(report, phases);
        PhaseViews.plots(report, "", phases, histograms, false);
    }

    /** The mix's latency from minute 2 on (read back from each phase's .hlog), beside the whole run's p99. */
    private static void settled(Report report, List<PhaseResult> phases) throws IOException {
        List<List<String>> rows = new ArrayList<>();
        for (PhaseResult phase : phases) {
            if (phase.durationSeconds() <= 2 * SETTLED_FROM_SECONDS) {
                continue;
            }
            Optional<LatencySummary> settled = SettledLatency.of(report.directory().resolve(phase.histogramLog()), SETTLED_FROM_SECONDS);
            settled.ifPresent(latency -> rows.add(List.of(phase.name(), Long.toString(latency.count()), Report.num(latency.p50()),
                    Report.num(latency.p90()), Report.num(latency.p99()), Report.num(latency.p999()), Report.num(latency.max()),
                    Report.num(phase.latencyMs().p99()))));
        }
        if (rows.isEmpty()) {
            return;
        }
        report.table(new Table("The mix from minute 2 on (2xx latency, ms; the first minute's warm-up left out)",
                List.of("phase", "2xx", "p50", "p90", "p99", "p99.9", "max", "whole run p99"), rows));
        report.note("The whole run's percentiles include the first minute: JIT, pools filling, and any backlog in the client's "
                + "connection-capped queue, which drains only once the service answers faster than the offered rate again. "
                + "The settled table is read back from each phase's .hlog with HdrHistogram's log reader.");
    }

    private static List<double[]> points(List<MinuteSample> minutes, ToDoubleFunction<MinuteSample> value) {
        return minutes.stream().filter(minute -> Double.isFinite(value.applyAsDouble(minute)))
                .map(minute -> new double[] {minute.minute(), value.applyAsDouble(minute)}).toList();
    }
}
