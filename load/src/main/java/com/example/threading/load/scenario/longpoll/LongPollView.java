package com.example.threading.load.scenario.longpoll;

import com.example.threading.load.engine.LatencySummary;
import com.example.threading.load.engine.Outcome;
import com.example.threading.load.engine.PhaseResult;
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
 * The long-poll scenario's report, built from {@link EndpointPolls} records: a row per endpoint against the
 * best possible throughput (C ÷ tick), the phases in detail, the standard plots, and results.json's
 * {@code longpoll} and {@code limitPerSecond}.
 *
 * <p>Thread-safety: stateless; call it on the report's thread.
 */
final class LongPollView {

    private LongPollView() {
    }

    /** The best possible throughput: every client answered once per event. */
    static double limitPerSecond(int clients, Duration tick) {
        return clients / (tick.toMillis() / 1000.0);
    }

    /** One endpoint, as soon as it is measured: its phase, and notes when the time limit cut it or answers were not JSON. */
    static void add(Report report, EndpointPolls polls, Duration endpointLimit) {
        PhaseResult phase = polls.phase();
        if (!polls.complete()) {
            report.note(polls.endpoint() + ": the time limit (" + Durations.format(endpointLimit) + ") ended the run before every client "
                    + "finished; " + phase.count(Outcome.UNANSWERED) + " polls were still open and counted unanswered.");
        }
        report.phase(phase);
        if (polls.unparsable() > 0) {
            report.note(polls.endpoint() + ": " + polls.unparsable() + " answers were not the documented JSON.");
        }
    }

    /** The tables, plots and data of every measured endpoint. */
    static void present(Report report, List<EndpointPolls> endpoints, int clients, int iterations, Duration tick, int threads)
            throws IOException {
        double limit = limitPerSecond(clients, tick);
        List<List<String>> rows = new ArrayList<>();
        List<PhaseResult> phases = new ArrayList<>();
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        Map<String, Object> data = new LinkedHashMap<>();
        for (EndpointPolls polls : endpoints) {
            String endpoint = polls.endpoint();
            PhaseResult phase = polls.phase();
            phases.add(phase);
            histograms.put(endpoint, polls.latencies());
            LatencySummary latency = phase.latencyMs();
            long ok = phase.count(Outcome.OK);
            double throughput = ok / phase.durationSeconds();
            rows.add(List.of("`" + endpoint + "`", Long.toString(phase.sent()), Long.toString(ok), Long.toString(polls.noEvent()),
                    Long.toString(phase.count(Outcome.REJECTED_503)), Long.toString(phase.sent() - ok - phase.count(Outcome.REJECTED_503)),
                    Report.num(Math.round(latency.mean())), Report.num(Math.round(latency.min())), Report.num(Math.round(latency.p50())),
                    Report.num(Math.round(latency.p99())), Report.num(Math.round(latency.max())), Report.num(throughput),
                    Report.num(Math.round(1000.0 * throughput / limit) / 10.0), Report.num(phase.durationSeconds()),
                    Report.num(phase.serverCpuPercent())));
            data.put(endpoint, Map.of("events", polls.events(), "missed", polls.missed(), "noEvent204", polls.noEvent(),
                    "unparsable", polls.unparsable(), "throughput", throughput, "ratioToLimit", throughput / limit, "complete", polls.complete()));
        }
        report.data("longpoll", data).data("limitPerSecond", limit);
        report.table(new Table("Long-poll: " + clients + " clients × " + iterations + " iterations, tick " + tick.toMillis()
                + " ms, " + threads + " worker threads (limit " + Report.num(limit) + " req/s)",
                List.of("endpoint", "polls", "2xx", "of which 204", "503", "failed", "avg ms", "min ms", "p50 ms", "p99 ms", "max ms",
                        "req/s", "% of limit", "s", "server CPU %"), rows));
        if (!phases.isEmpty()) {
            report.table(PhaseViews.table("Phases in detail", phases));
            PhaseViews.plots(report, "", phases, histograms, false);
        }
    }
}
