package com.example.threading.load.scenario.sse;

import com.example.threading.load.engine.http.Protocol;
import com.example.threading.load.report.Durations;
import com.example.threading.load.report.HistogramLogs;
import com.example.threading.load.report.Plots;
import com.example.threading.load.report.Report;
import com.example.threading.load.report.Table;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * The sse scenario's report: the batch side by side (per transport the median and range of the server's and the client's
 * figures, their ratio SSE ÷ long-poll against the goal), every round, the heap per idle stream against its goals, and the
 * rooms runs (delivery checks, deliveries/s, latency, the stalled reader's shedding); results.json's {@code sse}.
 */
final class SseView {

    static final String BATCH_TITLE = "One event to every waiting client";
    static final String HEAP_TITLE = "Server heap per idle stream";
    static final String ROOMS_TITLE = "Rooms over streams";
    static final double HEAP_GOAL_H2C_KIB = 3;
    static final double HEAP_GOAL_HTTP1_KIB = 8;
    static final double P99_GOAL_RATIO = 1.2;

    /**
     * Heap after forced full GCs with none and with {@code streams} idle clients open (MiB); {@code goalKib} per client,
     * NaN for a row set beside the others without a goal.
     */
    record Heap(String protocol, int streams, double noneMb, double openMb, double goalKib) {
        /** An idle stream's heap over {@code protocol}, with the streams' goal for it. */
        static Heap ofStreams(Protocol protocol, int streams, double noneMb, double openMb) {
            return new Heap(protocol.label(), streams, noneMb, openMb, protocol == Protocol.H2C ? HEAP_GOAL_H2C_KIB : HEAP_GOAL_HTTP1_KIB);
        }

        /** The same reading under {@code label}, without a goal (set beside others, not against one). */
        Heap beside(String label) {
            return new Heap(label, streams, noneMb, openMb, Double.NaN);
        }

        double kibPerStream() {
            return (openMb - noneMb) * 1024 / streams;
        }
    }

    /** The ws part: the rounds of each transport at {@code clients} clients, and the heap per idle socket and stream. */
    record Sockets(int clients, Protocol protocol, List<BatchRounds.Round> ws, List<BatchRounds.Round> sse, List<BatchRounds.Round> poll, List<Heap> heaps) {
    }

    /** One rooms run. */
    record Rooms(String name, int readers, RoomTraffic.Result result) {
    }

    private SseView() {
    }

    static void present(Report report, int streams, List<BatchRounds.Round> sse, List<BatchRounds.Round> poll, List<Heap> heaps,
                        List<Rooms> rooms, Duration drainTimeout, Sockets sockets) throws IOException {
        Map<String, Object> data = new LinkedHashMap<>();
        if (!sse.isEmpty() && !poll.isEmpty()) {
            batch(report, streams, sse, poll, data);
        }
        if (!heaps.isEmpty()) {
            data.put("heap", heap(report, HEAP_TITLE, heaps));
        }
        if (!rooms.isEmpty()) {
            rooms(report, rooms, drainTimeout, data);
        }
        if (sockets != null) {
            data.put("websocket", sockets(report, sockets));
        }
        report.data("sse", data);
    }

    private static void batch(Report report, int streams, List<BatchRounds.Round> sse, List<BatchRounds.Round> poll, Map<String, Object> data) {
        double sseServer = median(sse, BatchRounds.Round::serverLastWriteMs);
        double pollServer = median(poll, BatchRounds.Round::serverLastWriteMs);
        double sseClient = median(sse, BatchRounds.Round::clientLastMs);
        double pollClient = median(poll, BatchRounds.Round::clientLastMs);
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("SSE (GET /events/stream)", Integer.toString(streams), range(sse, BatchRounds.Round::serverLastWriteMs),
                range(sse, BatchRounds.Round::serverQueuedMs), range(sse, BatchRounds.Round::clientLastMs), received(sse)));
        rows.add(List.of("long-poll (GET /events)", Integer.toString(streams), range(poll, BatchRounds.Round::serverLastWriteMs),
                range(poll, BatchRounds.Round::serverQueuedMs), range(poll, BatchRounds.Round::clientLastMs), received(poll)));
        double serverRatio = sseServer / pollServer;
        double clientRatio = sseClient / pollClient;
        rows.add(List.of("ratio SSE ÷ long-poll (medians)", "", ratio(serverRatio), "", ratio(clientRatio),
                "goal ≤ 1×: server " + verdict(serverRatio <= 1) + ", client " + verdict(clientRatio <= 1)));
        report.table(new Table(BATCH_TITLE + ": " + streams + " streams vs " + streams + " parked long-polls over h2c, median (min–max) ms of "
                + count(sse) + " rounds",
                List.of("transport", "clients", "server event-to-last-write", "server event-to-queued", "client publish → last receipt", "received"), rows));
        List<List<String>> perRound = new ArrayList<>();
        for (List<BatchRounds.Round> figures : List.of(sse, poll)) {
            String name = figures == sse ? "SSE" : "long-poll";
            for (BatchRounds.Round round : figures) {
                perRound.add(List.of(name, round.round() + (round.warmUp() ? " (warm-up)" : ""), Report.ms(round.serverLastWriteMs()),
                        Report.ms(round.serverQueuedMs()), Report.ms(round.clientLastMs()), Report.ms(round.clientMedianMs()),
                        round.received() + " / " + round.expected()));
            }
        }
        report.table(new Table("Every round (ms)", List.of("transport", "round", "server event-to-last-write", "server event-to-queued",
                "client → last receipt", "client → median receipt", "received"), perRound));
        report.note("For a stream the server's event-to-last-write ends when the last stream's frame was handed to its socket's "
                + "non-blocking write (the frame may still be in Jetty's or the kernel's buffers); for a poll when the last answer "
                + "completed. The client's figure covers both to the reader's hands: the tool's threads share the cores with the server.");
        Map<String, Object> batch = new LinkedHashMap<>();
        batch.put("clients", streams);
        batch.put("sseServerLastWriteMedianMs", sseServer);
        batch.put("longPollServerLastWriteMedianMs", pollServer);
        batch.put("sseClientLastMedianMs", sseClient);
        batch.put("longPollClientLastMedianMs", pollClient);
        batch.put("serverRatio", serverRatio);
        batch.put("clientRatio", clientRatio);
        batch.put("sseRounds", sse);
        batch.put("longPollRounds", poll);
        data.put("batch", batch);
    }

    private static List<Map<String, Object>> heap(Report report, String title, List<Heap> heaps) {
        List<List<String>> rows = new ArrayList<>();
        List<Map<String, Object>> values = new ArrayList<>();
        for (Heap heap : heaps) {
            double kib = heap.kibPerStream();
            rows.add(List.of(heap.protocol(), Integer.toString(heap.streams()), Report.num(heap.noneMb()), Report.num(heap.openMb()),
                    Report.num(Math.round(kib * 100) / 100.0),
                    Double.isNaN(heap.goalKib()) ? "" : "≤ " + Report.num(heap.goalKib()) + " KiB: " + verdict(kib <= heap.goalKib())));
            Map<String, Object> value = new LinkedHashMap<>();
            value.put("protocol", heap.protocol());
            value.put("streams", heap.streams());
            value.put("heapNoneMb", heap.noneMb());
            value.put("heapOpenMb", heap.openMb());
            value.put("kibPerStream", kib);
            values.add(value);
        }
        report.table(new Table(title + " (heap used after a forced full GC, lower of two; with the clients open and idle minus with none)",
                List.of("protocol", "clients", "heap, none open MiB", "heap, clients open MiB", "KiB per client", "goal"), rows));
        return values;
    }

    private static Map<String, Object> sockets(Report report, Sockets run) {
        double pollServer = median(run.poll(), BatchRounds.Round::serverLastWriteMs);
        double pollClient = median(run.poll(), BatchRounds.Round::clientLastMs);
        List<List<String>> rows = new ArrayList<>();
        Map<String, List<BatchRounds.Round>> transports = new LinkedHashMap<>();
        transports.put("WebSocket (GET /events/ws, " + run.protocol().label() + ")", run.ws());
        transports.put("SSE (GET /events/stream, h2c)", run.sse());
        transports.put("long-poll (GET /events, h2c)", run.poll());
        transports.forEach((name, rounds) -> rows.add(List.of(name, Integer.toString(run.clients()),
                range(rounds, BatchRounds.Round::serverLastWriteMs), range(rounds, BatchRounds.Round::serverQueuedMs),
                range(rounds, BatchRounds.Round::clientLastMs), received(rounds))));
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("clients", run.clients());
        for (String transport : List.of("WebSocket", "SSE")) {
            List<BatchRounds.Round> rounds = transport.equals("SSE") ? run.sse() : run.ws();
            double server = median(rounds, BatchRounds.Round::serverLastWriteMs) / pollServer;
            double client = median(rounds, BatchRounds.Round::clientLastMs) / pollClient;
            rows.add(List.of("ratio " + transport + " ÷ long-poll (medians)", "", ratio(server), "", ratio(client),
                    "goal ≤ 1×: server " + verdict(server <= 1) + ", client " + verdict(client <= 1)));
            values.put(transport.toLowerCase(java.util.Locale.ROOT) + "ServerRatio", server);
            values.put(transport.toLowerCase(java.util.Locale.ROOT) + "ClientRatio", client);
        }
        report.table(new Table("WebSocket beside SSE and the long-poll: one event to " + run.clients() + " clients of each, median (min–max) "
                + "ms of " + count(run.ws()) + " rounds", List.of("transport", "clients", "server event-to-last-write",
                "server event-to-queued", "client publish → last receipt", "received"), rows));
        report.note("For a socket the server's event-to-last-write ends when the last socket's flush was handed to Jetty "
                + "(its batched messages written, or queued behind a write the network has not taken); " + (run.protocol() == Protocol.H2C
                ? "the sockets, like the streams and polls, are h2c streams sharing a few connections (RFC 8441)."
                : "each socket is a connection of its own (HTTP/1.1), where the streams and polls share a few h2c connections."));
        values.put("webSocketRounds", run.ws());
        values.put("sseRounds", run.sse());
        values.put("longPollRounds", run.poll());
        values.put("heap", heap(report, "Server heap per idle socket, idle stream and parked long-poll", run.heaps()));
        return values;
    }

    private static void rooms(Report report, List<Rooms> runs, Duration drainTimeout, Map<String, Object> data) throws IOException {
        List<List<String>> rows = new ArrayList<>();
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        Map<String, Object> values = new LinkedHashMap<>();
        double baseP99 = Double.NaN;
        for (int i = 0; i < runs.size(); i++) {
            Rooms run = runs.get(i);
            RoomTraffic.Result r = run.result();
            Histogram latency = r.latencyMicros();
            histograms.put(run.name(), latency);
            HistogramLogs.write(report.directory().resolve("rooms-delivery-" + (i + 1) + ".hlog"), "publish -> read latency, microseconds: "
                    + run.name(), latency);
            double p99 = latency.getValueAtPercentile(99) / 1000.0;
            if (i == 0) {
                baseP99 = p99;
            }
            RoomChecks c = r.checks();
            String shed = Double.isNaN(r.shedAfterSeconds()) ? (r.shedCount() > 0 ? r.shedCount() + " shed (not the stalled reader's timing)" : "–")
                    : r.shedCount() + " shed, " + Report.num(Math.round(r.shedAfterSeconds() * 10) / 10.0) + " s after its request";
            String goal = i == 0 ? "checks " + verdict(c.passed())
                    : "checks " + verdict(c.passed()) + "; shed " + verdict(r.shedCount() >= 1 && !Double.isNaN(r.shedAfterSeconds()))
                    + "; p99 ≤ " + P99_GOAL_RATIO + "× (" + ratio(p99 / baseP99) + "): " + verdict(p99 <= P99_GOAL_RATIO * baseP99);
            rows.add(List.of(run.name(), Integer.toString(run.readers()), Long.toString(r.published()), Long.toString(c.expected()),
                    Long.toString(c.deliveries()), Long.toString(c.lost()), Long.toString(c.duplicated()), Long.toString(c.outOfOrder()),
                    Report.num(Math.rint(r.deliveriesPerSecond())), Report.ms(latency.getValueAtPercentile(50) / 1000.0), Report.ms(p99),
                    Report.ms(latency.getValueAtPercentile(99.9) / 1000.0), Report.ms(latency.getMaxValue() / 1000.0), shed, goal));
            Map<String, Object> value = new LinkedHashMap<>();
            value.put("readers", run.readers());
            value.put("published", r.published());
            value.put("publishFailures", r.publishFailures());
            value.put("expected", c.expected());
            value.put("deliveries", c.deliveries());
            value.put("lost", c.lost());
            value.put("duplicated", c.duplicated());
            value.put("outOfOrder", c.outOfOrder());
            value.put("checksPassed", c.passed());
            value.put("deliveriesPerSecond", r.deliveriesPerSecond());
            value.put("p50Ms", latency.getValueAtPercentile(50) / 1000.0);
            value.put("p99Ms", p99);
            value.put("p999Ms", latency.getValueAtPercentile(99.9) / 1000.0);
            value.put("maxMs", latency.getMaxValue() / 1000.0);
            value.put("maxPublishLagMs", r.maxPublishLagMs());
            value.put("readerFailures", r.readerFailures());
            value.put("shedCount", r.shedCount());
            value.put("shedAfterSeconds", Double.isNaN(r.shedAfterSeconds()) ? null : r.shedAfterSeconds());
            value.put("ballastPublished", r.ballastPublished());
            values.put(run.name(), value);
            if (r.publishFailures() > 0) {
                report.note(run.name() + ": " + r.publishFailures() + " room publishes failed (not counted as published).");
            }
            if (r.maxPublishLagMs() > 100) {
                report.note(run.name() + ": the publisher sent up to " + Report.ms(r.maxPublishLagMs()) + " ms after a message's intended time "
                        + "(latency still counts from the intended time).");
            }
        }
        report.table(new Table(ROOMS_TITLE + ": loss / duplicates / order per reader, deliveries/s, publish → read latency (ms)",
                List.of("run", "readers", "published", "expected deliveries", "deliveries", "lost", "duplicated", "out of order", "deliveries/s",
                        "p50", "p99", "p99.9", "max", "stalled reader", "goal"), rows));
        report.note("Rooms: the stalled reader is a raw socket (4 KiB receive buffer) that sends its request head and never reads, on room 0 "
                + "and the ballast topic; loopback's kernel buffers take megabytes before the server sees a stall, which the ballast fills. "
                + "The service sheds a stream over sse.maxUnsentBytes at its next event or, with bytes unsent, after drainTimeout ("
                + Durations.format(drainTimeout) + ") without progress. Its latency and ledger are not in the table: the others' are.");
        Plots.percentiles(report.directory().resolve("rooms-delivery-percentiles.png"), "Rooms over streams: publish → read latency by percentile",
                histograms);
        report.plot("rooms-delivery-percentiles.png", "Publish → read latency of the rooms runs, one line per run.");
        data.put("rooms", values);
    }

    private static double median(List<BatchRounds.Round> rounds, ToDoubleFunction<BatchRounds.Round> figure) {
        double[] values = rounds.stream().filter(round -> !round.warmUp()).mapToDouble(figure).filter(Double::isFinite).sorted().toArray();
        if (values.length == 0) {
            return Double.NaN;
        }
        return values.length % 2 == 1 ? values[values.length / 2] : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
    }

    private static String range(List<BatchRounds.Round> rounds, ToDoubleFunction<BatchRounds.Round> figure) {
        double[] values = rounds.stream().filter(round -> !round.warmUp()).mapToDouble(figure).filter(Double::isFinite).toArray();
        if (values.length == 0) {
            return "–";
        }
        return Report.ms(median(rounds, figure)) + " (" + Report.ms(Arrays.stream(values).min().orElseThrow()) + "–"
                + Report.ms(Arrays.stream(values).max().orElseThrow()) + ")";
    }

    private static long count(List<BatchRounds.Round> rounds) {
        return rounds.stream().filter(round -> !round.warmUp()).count();
    }

    private static String received(List<BatchRounds.Round> rounds) {
        long all = rounds.stream().filter(round -> !round.warmUp()).filter(round -> round.received() == round.expected()).count();
        return all + " of " + count(rounds) + " rounds: every client";
    }

    private static String ratio(double value) {
        return Double.isFinite(value) ? String.format(java.util.Locale.ROOT, "%.2f×", value) : "–";
    }

    private static String verdict(boolean met) {
        return met ? "met" : "not met";
    }
}
