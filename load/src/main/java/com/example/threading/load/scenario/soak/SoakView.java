package com.example.threading.load.scenario.soak;

import com.example.threading.load.engine.PhaseResult;
import com.example.threading.load.report.PhaseViews;
import com.example.threading.load.report.Plots;
import com.example.threading.load.report.Report;
import com.example.threading.load.report.Table;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * The soak's report: the verdict table (per series: first and last minute, slope, projected growth, flat or
 * growing), the per-minute table, two plots of the minutes (heap; threads, files and polls), then the standard
 * phase table and plots of the mix.
 *
 * <p>Thread-safety: stateless; call it on the report's thread.
 */
final class SoakView {

    /** A per-minute series, its unit and what counts as noise in it. */
    private record Series(String name, String unit, double slack, ToDoubleFunction<MinuteSample> value) {
    }

    private SoakView() {
    }

    static List<Series> series() {
        List<Series> series = new ArrayList<>(List.of(
                new Series("heap after GC", "MB", 8, MinuteSample::heapAfterGcMb),
                new Series("threads", "threads", 10, MinuteSample::threadsMax),
                new Series("open files", "files", 20, MinuteSample::openFilesMax)));
        for (String gauge : SoakScenario.POLL_GAUGES) {
            series.add(new Series(gauge, "polls", 20, minute -> minute.gaugesMax().getOrDefault(gauge, Double.NaN)));
        }
        return series;
    }

    static void present(Report report, List<MinuteSample> minutes, List<PhaseResult> phases, Map<String, Histogram> histograms)
            throws IOException {
        List<List<String>> verdicts = new ArrayList<>();
        List<String> growing = new ArrayList<>();
        Map<String, Object> data = new LinkedHashMap<>();
        for (Series series : series()) {
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

        List<List<String>> rows = new ArrayList<>();
        for (MinuteSample minute : minutes) {
            List<String> row = new ArrayList<>(List.of(Integer.toString(minute.minute()), Report.num(minute.heapAfterGcMb()),
                    Report.num(minute.heapUsedMaxMb()), Report.num(minute.threadsMax()), Report.num(minute.openFilesMax())));
            SoakScenario.POLL_GAUGES.forEach(gauge -> row.add(Report.num(minute.gaugesMax().getOrDefault(gauge, Double.NaN))));
            row.add(Report.num(minute.serverCpuPercent()));
            rows.add(row);
        }
        List<String> header = new ArrayList<>(List.of("minute", "heap after GC MB (lowest)", "heap used MB (peak)", "threads (peak)",
                "open files (peak)"));
        SoakScenario.POLL_GAUGES.forEach(gauge -> header.add(gauge + " (peak)"));
        header.add("server CPU %");
        report.table(new Table("Per minute", header, rows));
        report.data("soakMinutes", minutes);
        report.data("soakVerdict", data);

        Map<String, List<double[]>> heap = new LinkedHashMap<>();
        heap.put("heap after GC (lowest)", points(minutes, MinuteSample::heapAfterGcMb));
        heap.put("heap used (peak)", points(minutes, MinuteSample::heapUsedMaxMb));
        Plots.lines(report.directory().resolve("soak-heap.png"), "Heap per minute", "minute", "MB", heap);
        report.plot("soak-heap.png", "The service's heap per minute: the lowest a collection left (what a leak raises) and the peak used.");
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
        PhaseViews.plots(report, "", phases, histograms, false);
    }

    private static List<double[]> points(List<MinuteSample> minutes, ToDoubleFunction<MinuteSample> value) {
        return minutes.stream().filter(minute -> Double.isFinite(value.applyAsDouble(minute)))
                .map(minute -> new double[] {minute.minute(), value.applyAsDouble(minute)}).toList();
    }
}
