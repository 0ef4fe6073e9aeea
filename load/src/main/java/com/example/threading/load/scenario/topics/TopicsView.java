package com.example.threading.load.scenario.topics;

import com.example.threading.load.engine.jvm.GcPauses;
import com.example.threading.load.engine.jvm.ServerMetrics;
import com.example.threading.load.engine.traffic.TopicsTraffic;
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
 * The topics scenario's report: one row per phase with the delivery checks, the rates beside CometD's published ones,
 * the latency percentiles, CPU and GC, and over WebSockets what the sockets did; the percentile plot; one
 * {@code delivery-<n>.hlog} per phase; results.json's {@code topics}. Every table names the members' transport.
 */
final class TopicsView {

    /** CometD's published benchmark figures for this shape (long-polling, 1,000 clients, 100 rooms, 10 per client). */
    static final double COMETD_DELIVERIES_PER_SECOND = 78_211;
    static final double COMETD_P99_MS = 150;

    /**
     * One measured phase: the traffic's result, the servers' and the tool's CPU (% of all cores), the servers' GC, and the
     * servers' batches over the measured run (event → last answer written, all instances).
     */
    record Phase(TopicsTraffic.Result traffic, double serverCpuPercent, double toolCpuPercent, GcPauses serverGc,
                 ServerMetrics.Timer serverBatches, double seconds) {
    }

    private TopicsView() {
    }

    /** The tables, plot and data of the measured phases, named by {@code names} in the same order, read over {@code transport}. */
    static void present(Report report, List<String> names, List<Phase> phases, TopicsTraffic.Transport transport) throws IOException {
        boolean sockets = transport == TopicsTraffic.Transport.WS;
        String over = sockets ? "members on one WebSocket each (GET /events/ws)" : "members on long polls (GET /events)";
        List<List<String>> checks = new ArrayList<>();
        List<List<String>> socketRows = new ArrayList<>();
        List<List<String>> rates = new ArrayList<>();
        List<List<String>> server = new ArrayList<>();
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        Map<String, Object> data = new LinkedHashMap<>();
        for (int i = 0; i < phases.size(); i++) {
            Phase phase = phases.get(i);
            TopicsTraffic.Result t = phase.traffic();
            String name = names.get(i);
            Histogram latency = t.deliveryMicros();
            histograms.put(name, latency);
            HistogramLogs.write(report.directory().resolve("delivery-" + (i + 1) + ".hlog"), "publish -> read latency, microseconds: " + name, latency);
            List<String> check = new ArrayList<>(List.of(name, t.transport().label(), Long.toString(t.published()), t.publishFailures() + kinds(t.publishFailureKinds()),
                    Long.toString(t.expectedDeliveries()), Long.toString(t.deliveries()), Long.toString(t.skipped()), Long.toString(t.unreadAtEnd()),
                    Long.toString(t.duplicated()), Long.toString(t.outOfOrder()), Long.toString(t.missedAnswers())));
            if (!sockets) {
                check.addAll(List.of(Long.toString(t.polls()), Long.toString(t.timedOutPolls()), Long.toString(t.refusedPolls()), Long.toString(t.failedPolls())));
            }
            checks.add(check);
            TopicsTraffic.SocketCounts s = t.sockets();
            socketRows.add(List.of(name, Long.toString(s.connects()), Long.toString(s.failedConnects()), Long.toString(s.ended()),
                    s.ends().isEmpty() ? "none" : listed(s.ends()), Long.toString(s.otherMessages())));
            rates.add(List.of(name, Report.num(t.messagesPerSecond()), Report.num(t.deliveriesPerSecond()),
                    Report.num(100 * t.deliveriesPerSecond() / COMETD_DELIVERIES_PER_SECOND) + " %", ms(latency, 50), ms(latency, 99),
                    ms(latency, 99.9), Report.ms(latency.getMaxValue() / 1000.0), Report.num(phase.serverCpuPercent()),
                    Report.num(phase.toolCpuPercent()), Report.ms(t.maxPublishLagMs()),
                    phase.serverGc().count() + " / " + Report.ms(phase.serverGc().totalMs()) + " / " + Report.ms(phase.serverGc().maxMs())));
            ServerMetrics.Timer batches = phase.serverBatches();
            server.add(List.of(name, ms(t.publishMicros(), 50), ms(t.publishMicros(), 99), Long.toString(batches.count()),
                    Report.ms(batches.meanMs()), Report.ms(batches.atMostMs(0.5)), Report.ms(batches.atMostMs(0.99)), ms(latency, 50), ms(latency, 99),
                    ms(t.deliveryFromSendMicros(), 50), ms(t.deliveryFromSendMicros(), 99)));
            Map<String, Object> values = new LinkedHashMap<>();
            values.put("transport", t.transport().label());
            values.put("instances", t.instances());
            values.put("published", t.published());
            values.put("publishFailures", t.publishFailures());
            values.put("publishFailureKinds", t.publishFailureKinds());
            values.put("expectedDeliveries", t.expectedDeliveries());
            values.put("deliveries", t.deliveries());
            values.put("lost", t.lost());
            values.put("skipped", t.skipped());
            values.put("unreadAtEnd", t.unreadAtEnd());
            values.put("duplicated", t.duplicated());
            values.put("outOfOrder", t.outOfOrder());
            values.put("missedAnswers", t.missedAnswers());
            values.put("polls", t.polls());
            values.put("timedOutPolls", t.timedOutPolls());
            values.put("refusedPolls", t.refusedPolls());
            values.put("failedPolls", t.failedPolls());
            if (sockets) {
                values.put("socketConnects", s.connects());
                values.put("socketFailedConnects", s.failedConnects());
                values.put("socketEnds", s.ends());
                values.put("socketOtherMessages", s.otherMessages());
            }
            values.put("messagesPerSecond", t.messagesPerSecond());
            values.put("deliveriesPerSecond", t.deliveriesPerSecond());
            values.put("p50Ms", latency.getValueAtPercentile(50) / 1000.0);
            values.put("p99Ms", latency.getValueAtPercentile(99) / 1000.0);
            values.put("maxMs", latency.getMaxValue() / 1000.0);
            values.put("p50FromSendMs", t.deliveryFromSendMicros().getValueAtPercentile(50) / 1000.0);
            values.put("p99FromSendMs", t.deliveryFromSendMicros().getValueAtPercentile(99) / 1000.0);
            values.put("serverCpuPercent", phase.serverCpuPercent());
            values.put("toolCpuPercent", phase.toolCpuPercent());
            values.put("maxPublishLagMs", t.maxPublishLagMs());
            values.put("serverGcPauses", phase.serverGc().count());
            values.put("serverGcPausedMs", phase.serverGc().totalMs());
            values.put("publishP50Ms", t.publishMicros().getValueAtPercentile(50) / 1000.0);
            values.put("publishP99Ms", t.publishMicros().getValueAtPercentile(99) / 1000.0);
            values.put("serverBatches", batches.count());
            values.put("serverBatchLastWriteMeanMs", batches.meanMs());
            values.put("serverBatchLastWriteP99AtMostMs", batches.atMostMs(0.99));
            data.put(name, values);
            if (t.maxPublishLagMs() > 100) {
                report.note(name + ": the publisher sent up to " + Report.ms(t.maxPublishLagMs()) + " ms after a message's intended "
                        + "time: the tool fell behind its schedule (latency still counts from the intended time).");
            }
            if (t.expectedDeliveries() > 0 && t.deliveries() < t.expectedDeliveries()) {
                report.note(name + ": " + (t.expectedDeliveries() - t.deliveries()) + " deliveries missing: " + t.skipped()
                        + " skipped (the client's cursor moved past them, e.g. a missed answer), " + t.unreadAtEnd()
                        + " still ahead of the client's cursor when the drain ended (late, not skipped).");
            }
            if (t.deliveries() > t.expectedDeliveries()) {
                report.note(name + ": " + (t.deliveries() - t.expectedDeliveries()) + " deliveries more than expected: messages whose "
                        + "publish the tool counted as failed (a 503 after the stream's timeout, or no answer in time) were "
                        + "appended all the same, the ambiguity a timed-out publish has. Latency is not measured for them.");
            }
        }
        report.data("topics", data);
        List<String> checkColumns = new ArrayList<>(List.of("phase", "transport", "published", "publish failures", "expected deliveries", "deliveries",
                "skipped (cursor moved past, never received)", "not read by the end of the drain (still ahead of the cursor)", "duplicated",
                "out of order", sockets ? "missed messages" : "missed answers"));
        if (!sockets) {
            checkColumns.addAll(List.of("polls", "polls timed out (204)", "refused polls", "failed polls"));
        }
        report.table(new Table("Topics: delivery checks per client and room, " + over, checkColumns, checks));
        if (sockets) {
            report.table(new Table("Topics: the members' sockets (one per client, reopened from its last position when the server or the network "
                    + "ends it: a final message's type, or the close code without one)",
                    List.of("phase", "connects (first ones and reopened)", "failed connects", "sockets ended before the drain's end", "ends by kind",
                            "other messages (errors, unreadable)"), socketRows));
        }
        report.table(new Table("Topics: rates (over the publishing time) and publish → read latency, " + over
                + "; CometD published 78,211 deliveries/s at p99 150 ms (long-polling)",
                List.of("phase", "messages in/s", "deliveries/s", "of CometD's", "p50 ms", "p99 ms", "p99.9 ms", "max ms",
                        "server CPU %", "tool CPU %", "publisher lag max ms", "server GC pauses: count / total ms / longest ms"), rates));
        report.table(new Table("Topics: where a delivery's time goes. A publish from its intended send time to its 200 or, on a socket, "
                + "its ack (the event is in the stream); the server's batches from an event's arrival to the last answer written (events.event-to-last-write over "
                + "the measured run, from /prometheus; its buckets bound the percentiles from above); the clients' publish → read latency, "
                + "from the intended send time and from the send itself (what CometD's benchmark measures: a late publisher's wait not counted)",
                List.of("phase", "publish answered p50 ms", "publish answered p99 ms", "server batches (events that found parked polls)",
                        "batch mean ms", "batch p50 at most ms", "batch p99 at most ms", "clients' p50 ms", "clients' p99 ms",
                        "clients' p50 from the send ms", "clients' p99 from the send ms"), server));
        if (!histograms.isEmpty()) {
            Plots.percentiles(report.directory().resolve("delivery-percentiles.png"), "Publish → read latency by percentile", histograms);
            report.plot("delivery-percentiles.png", "Publish → read latency, one line per phase.");
        }
        report.note("Server and tool share this machine's cores; CPU is in % of all cores. A deliveries/s figure below the "
                + "offered one with nothing lost means the drain delivered the rest after publishing ended.");
    }

    private static String kinds(Map<String, Long> kinds) {
        return kinds.isEmpty() ? "" : " (" + listed(kinds) + ")";
    }

    /** {@code 3 × reconnect, 1 × close 1008}; empty for none. */
    private static String listed(Map<String, Long> kinds) {
        StringBuilder text = new StringBuilder();
        kinds.forEach((kind, count) -> text.append(text.length() > 0 ? ", " : "").append(count).append(" × ").append(kind));
        return text.toString();
    }

    private static String ms(Histogram latency, double percentile) {
        return Report.ms(latency.getValueAtPercentile(percentile) / 1000.0);
    }
}
