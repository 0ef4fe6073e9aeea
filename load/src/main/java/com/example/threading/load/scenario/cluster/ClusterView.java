package com.example.threading.load.scenario.cluster;

import com.example.threading.load.engine.traffic.ClusterTraffic;
import com.example.threading.load.report.HistogramLogs;
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
 * The cluster scenario's report, from {@link ClusterTraffic.Result} records: one row per phase (in-process, shared
 * stream) with the delivery checks and the delivery latency percentiles, the percentile plot, one
 * {@code delivery-<n>.hlog} per phase, and results.json's {@code cluster}.
 */
final class ClusterView {

    private ClusterView() {
    }

    /** The table, plot and data of the measured phases, named by {@code names} in the same order. */
    static void present(Report report, List<String> names, List<ClusterTraffic.Result> phases) throws IOException {
        List<List<String>> rows = new ArrayList<>();
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        Map<String, Object> data = new LinkedHashMap<>();
        for (int i = 0; i < phases.size(); i++) {
            ClusterTraffic.Result phase = phases.get(i);
            String name = names.get(i);
            Histogram latency = phase.deliveryMicros();
            histograms.put(name, latency);
            HistogramLogs.write(report.directory().resolve("delivery-" + (i + 1) + ".hlog"), "publish -> delivery latency, microseconds", latency);
            rows.add(List.of(name, Long.toString(phase.published()), Long.toString(phase.publishFailures()),
                    Integer.toString(phase.followers().size()), Long.toString(phase.lost()), Long.toString(phase.duplicated()),
                    Long.toString(phase.outOfOrder()), Long.toString(phase.missedAnswers()), Long.toString(phase.failedPolls()),
                    Long.toString(latency.getTotalCount()), ms(latency, 50), ms(latency, 90), ms(latency, 99), ms(latency, 99.9),
                    Report.ms(latency.getMaxValue() / 1000.0)));
            Map<String, Object> values = new LinkedHashMap<>();
            values.put("instances", phase.instances());
            values.put("published", phase.published());
            values.put("publishFailures", phase.publishFailures());
            values.put("followers", phase.followers().size());
            values.put("lost", phase.lost());
            values.put("duplicated", phase.duplicated());
            values.put("outOfOrder", phase.outOfOrder());
            values.put("missedAnswers", phase.missedAnswers());
            values.put("failedPolls", phase.failedPolls());
            values.put("deliveryP50Ms", latency.getValueAtPercentile(50) / 1000.0);
            values.put("deliveryP99Ms", latency.getValueAtPercentile(99) / 1000.0);
            values.put("killed", phase.killed().map(Object::toString).orElse(""));
            data.put(name, values);
            phase.killed().ifPresent(uri -> report.note(name + ": " + uri + " was killed with SIGKILL half-way; its followers' "
                    + "polls failed there (counted in 'failed polls') and went on on the other instances; publishes sent to it "
                    + "then failed ('publish failures')."));
        }
        report.data("cluster", data);
        report.table(new Table("Cluster: delivery checks and publish → delivery latency",
                List.of("phase", "published", "publish failures", "followers", "lost", "duplicated", "out of order", "missed answers",
                        "failed polls", "deliveries", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms"), rows));
        if (!histograms.isEmpty()) {
            Plots.percentiles(report.directory().resolve("delivery-percentiles.png"), "Publish → delivery latency by percentile", histograms);
            report.plot("delivery-percentiles.png", "Publish → delivery latency, one line per phase.");
        }
    }

    private static String ms(Histogram latency, double percentile) {
        return Report.ms(latency.getValueAtPercentile(percentile) / 1000.0);
    }
}
