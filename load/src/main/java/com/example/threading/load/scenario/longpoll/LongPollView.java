package com.example.threading.load.scenario.longpoll;

import com.example.threading.load.engine.http.ClientConnections;
import com.example.threading.load.engine.recording.LatencySummary;
import com.example.threading.load.engine.recording.Outcome;
import com.example.threading.load.engine.recording.PhaseResult;
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

    /** A process whose GC paused it for more than this share of the phase could not keep up. */
    static final double MAX_PAUSE_SHARE = 0.02;

    /** Server and clients together above this share of all cores: the machine, not the service, set the pace. */
    static final double SATURATED_PERCENT = 90;

    /**
     * The processes the clients ran in (sockets open when polling began vs clients, sockets at most, CPU, GC pauses) and,
     * per endpoint, whether the tool kept up; results.json's {@code clientProcesses} and {@code toolKeptUp}.
     */
    static void clientProcesses(Report report, List<EndpointPolls> endpoints) {
        List<List<String>> rows = new ArrayList<>();
        Map<String, Object> data = new LinkedHashMap<>();
        for (EndpointPolls polls : endpoints) {
            List<String> reasons = lagging(polls);
            for (ClientProcess process : polls.clients()) {
                ClientConnections sockets = process.connections();
                rows.add(List.of("`" + polls.endpoint() + "`", process.name(), Long.toString(process.pid()), Report.num(process.clients()),
                        Report.num(sockets.openAtStart()), Report.num(sockets.peakOpen()), Report.num(sockets.opened()),
                        Long.toString(sockets.connectFailures()), Long.toString(sockets.reconnects()), Report.num(process.cpuPercent()),
                        Long.toString(process.pauses().count()), Report.num(Math.round(process.pauses().totalMs())),
                        Report.num(Math.round(process.pauses().maxMs()))));
            }
            report.note(polls.endpoint() + ": " + (reasons.isEmpty()
                    ? "the tool kept up (one connection per client when polling began, no client queue, its GC pauses under "
                    + Math.round(MAX_PAUSE_SHARE * 100) + " % of the phase, server and tool under " + Math.round(SATURATED_PERCENT)
                    + " % of the cores)."
                    : "the tool could NOT keep up, so these figures are partly the tool's: " + String.join("; ", reasons) + "."));
            data.put(polls.endpoint(), Map.of("toolKeptUp", reasons.isEmpty(), "reasons", reasons, "processes", polls.clients()));
        }
        report.data("clientProcesses", data);
        report.table(new Table("Client processes: sockets, CPU and GC while polling (one connection per client; no request waits in a client queue)",
                List.of("endpoint", "process", "pid", "clients", "sockets open when polling began", "sockets open at most",
                        "sockets opened", "failed connects", "reconnects", "CPU % (of all cores)", "GC pauses", "pause total ms",
                        "longest pause ms"), rows));
    }

    /** Why the tool did not keep up with one endpoint's polls; empty when it did. */
    static List<String> lagging(EndpointPolls polls) {
        List<String> reasons = new ArrayList<>();
        double phaseMs = polls.phase().durationSeconds() * 1000;
        long open = polls.clients().stream().mapToLong(process -> process.connections().openAtStart()).sum();
        long clients = polls.clients().stream().mapToLong(ClientProcess::clients).sum();
        if (open < clients) {
            reasons.add("only " + open + " of " + clients + " clients had a connection when polling began (the others connected late)");
        }
        for (ClientProcess process : polls.clients()) {
            if (phaseMs > 0 && process.pauses().totalMs() > MAX_PAUSE_SHARE * phaseMs) {
                reasons.add(process.name() + " was paused by its GC for " + Math.round(process.pauses().totalMs()) + " ms of the "
                        + Math.round(phaseMs) + " ms phase");
            }
        }
        double tools = polls.clients().stream().mapToDouble(ClientProcess::cpuPercent).sum();
        double server = polls.phase().serverCpuPercent();
        if (!Double.isNaN(server) && server + tools >= SATURATED_PERCENT) {
            reasons.add("server (" + Report.num(server) + " %) and clients (" + Report.num(tools) + " %) used the machine's cores");
        }
        return reasons;
    }
}
