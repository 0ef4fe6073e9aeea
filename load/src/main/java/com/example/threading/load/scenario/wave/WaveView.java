package com.example.threading.load.scenario.wave;

import com.example.threading.load.engine.recording.LatencySummary;
import com.example.threading.load.engine.recording.Outcome;
import com.example.threading.load.report.Plots;
import com.example.threading.load.report.Report;
import com.example.threading.load.report.Table;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The wave scenario's report, built from {@link PatternWaves} records: the wave-time table, waves.png,
 * percentiles.png and results.json's {@code waves}.
 */
final class WaveView {

    private WaveView() {
    }

    /** One pattern's waves, as soon as they are measured: their phases, and a note unless every request got a 2xx. */
    static void add(Report report, PatternWaves pattern) {
        pattern.waves().forEach(report::phase);
        String note = note(pattern);
        if (!note.isEmpty()) {
            report.note(pattern.pattern() + ": " + note);
        }
    }

    /** The table (a row per pattern, a column per wave), the plots and the data of every measured pattern. */
    static void present(Report report, List<PatternWaves> patterns, int concurrency, int waves, int ms) throws IOException {
        List<List<String>> rows = new ArrayList<>();
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        List<String> categories = new ArrayList<>();
        Map<String, List<Double>> waveSeries = new LinkedHashMap<>();
        for (int w = 1; w <= waves; w++) {
            waveSeries.put("wave " + w, new ArrayList<>());
        }
        Map<String, Object> data = new LinkedHashMap<>();
        for (PatternWaves pattern : patterns) {
            histograms.put(pattern.pattern(), pattern.latencies());
            List<Double> waveTimes = pattern.waveTimesMs();
            LatencySummary latency = pattern.latency();
            long ok = pattern.count(Outcome.OK);
            List<String> row = new ArrayList<>();
            row.add(pattern.pattern());
            for (int w = 0; w < waves; w++) {
                row.add(w < waveTimes.size() && !Double.isNaN(waveTimes.get(w)) ? Report.num(Math.round(waveTimes.get(w))) : "–");
            }
            double best = waveTimes.stream().mapToDouble(Double::doubleValue).filter(v -> !Double.isNaN(v)).min().orElse(Double.NaN);
            row.add(Report.num(Double.isNaN(best) ? best : Math.round(best - ms)));
            row.add(latency.count() == 0 ? "–" : Report.ms(latency.p50()));
            row.add(latency.count() == 0 ? "–" : Report.ms(latency.max()));
            row.add(ok + " / " + pattern.sent());
            row.add(note(pattern));
            rows.add(row);
            if (!pattern.unavailable()) {
                categories.add(pattern.pattern());
                for (int w = 1; w <= waves; w++) {
                    double value = w <= waveTimes.size() ? waveTimes.get(w - 1) : Double.NaN;
                    waveSeries.get("wave " + w).add(Double.isNaN(value) ? 0.0 : value);
                }
            }
            data.put(pattern.pattern(), Map.of("waveMs", waveTimes, "sent", pattern.sent(), "ok", ok, "outcomes", pattern.outcomes(),
                    "latencyMs", latency));
        }
        List<String> header = new ArrayList<>(List.of("pattern"));
        for (int w = 1; w <= waves; w++) {
            header.add("wave " + w + " ms");
        }
        header.addAll(List.of("best − " + ms + " ms", "p50 ms", "max ms", "2xx / sent", "note"));
        report.table(new Table("Wave times (" + concurrency + " concurrent × " + waves + " waves, ms=" + ms + ")", header, rows));
        report.data("waves", data);
        Plots.bars(report.directory().resolve("waves.png"), "Wave time by pattern (" + concurrency + " concurrent, ms=" + ms + ")",
                "ms", categories, waveSeries);
        report.plot("waves.png", "Time from the first send to the last answer of each wave, per pattern.");
        Plots.percentiles(report.directory().resolve("percentiles.png"), "Request latency by percentile, all waves", histograms);
        report.plot("percentiles.png", "Latency of every request of every wave, by percentile.");
    }

    /** Why a pattern's row needs a second look: all 501 (unavailable), or not all 2xx; empty when all went well. */
    static String note(PatternWaves pattern) {
        if (pattern.unavailable()) {
            return "501: pattern unavailable on the server's JDK (virtual threads need 21+)";
        }
        return pattern.count(Outcome.OK) == pattern.sent() ? "" : "not all 2xx: " + nonZero(pattern.outcomes());
    }

    private static Map<String, Long> nonZero(Map<String, Long> outcomes) {
        Map<String, Long> counted = new LinkedHashMap<>();
        outcomes.forEach((outcome, count) -> {
            if (count > 0) {
                counted.put(outcome, count);
            }
        });
        return counted;
    }
}
