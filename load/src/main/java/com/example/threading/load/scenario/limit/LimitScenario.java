package com.example.threading.load.scenario.limit;

import com.example.threading.load.engine.GeneratedLoad;
import com.example.threading.load.engine.Outcome;
import com.example.threading.load.engine.PhaseResult;
import com.example.threading.load.engine.Progress;
import com.example.threading.load.engine.Protocol;
import com.example.threading.load.engine.Schedule;
import com.example.threading.load.report.PhaseViews;
import com.example.threading.load.report.Plots;
import com.example.threading.load.report.Report;
import com.example.threading.load.scenario.ScenarioCommand;
import com.example.threading.load.target.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.mortbay.jetty.load.generator.Resource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The limit test: offered rates stepped past capacity, to see how the service degrades (503, resets or timeouts). */
@Command(name = "limit",
        description = "Steps the offered rate past capacity: throughput, error kinds (503 / reset / timeout) and latency per step.")
public final class LimitScenario extends ScenarioCommand {

    @Option(names = "--pattern", defaultValue = "bounded", description = "/work pattern (default: ${DEFAULT-VALUE})")
    String pattern;

    @Option(names = "--ms", defaultValue = "100", description = "Work per request in ms (default: ${DEFAULT-VALUE})")
    int ms;

    @Option(names = "--rates", split = ",", defaultValue = "100,250,500,750,1000,1500",
            description = "Offered rates in requests/s, one step each (default: ${DEFAULT-VALUE})")
    List<Integer> rates;

    @Option(names = "--step", defaultValue = "10s", description = "Length of each step (default: ${DEFAULT-VALUE})")
    Duration step;

    @Option(names = "--pause", defaultValue = "3s", description = "Quiet time between steps (default: ${DEFAULT-VALUE})")
    Duration pause;

    @Option(names = "--protocol", defaultValue = "HTTP1", description = "HTTP1 or H2C (default: ${DEFAULT-VALUE})")
    Protocol protocol;

    @Option(names = "--idle-timeout", defaultValue = "10s",
            description = "Client gives up on an answer after this long without bytes: counted as timeout (default: ${DEFAULT-VALUE})")
    Duration idleTimeout;


    /** A run with this scenario's defaults, filled in by picocli. */
    public LimitScenario() {
        super(Duration.ofSeconds(300));
    }

    @Override
    protected void run(Report report) throws Exception {
        String path = "/work/" + pattern + "?ms=" + ms;
        report.configure("path", path).configure("rates", rates).configure("step", step).configure("pause", pause)
                .configure("protocol", protocol.label()).configure("client idle timeout", idleTimeout)
                .configure("service config", "config.yml defaults (Jetty maxThreads 200, bounded pool 50 threads + 50 queued) unless --env says otherwise");
        report.summary("A limit test, not a latency test: each step offers a fixed rate (open model: the sender does not wait "
                + "for answers) to `" + path + "` and counts how every request ended. Past capacity a well-behaved service "
                + "answers 503 quickly; a badly-behaved one queues without bound (latency grows, then timeouts) or resets connections.");
        List<PhaseResult> phases = new ArrayList<>();
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        List<List<String>> rows = new ArrayList<>();
        Map<String, List<double[]>> throughput = new LinkedHashMap<>();
        for (String series : List.of("offered", "2xx/s", "503/s", "reset/s", "timeout+unanswered/s")) {
            throughput.put(series, new ArrayList<>());
        }
        Map<String, List<double[]>> latency = new LinkedHashMap<>();
        latency.put("p50", new ArrayList<>());
        latency.put("p99", new ArrayList<>());
        latency.put("max", new ArrayList<>());
        try (Target service = open(report, Map.of(), List.of())) {
            for (int rate : rates) {
                if (deadline().isUp()) {
                    report.note("Time limit reached: step " + rate + "/s and later skipped.");
                    break;
                }
                GeneratedLoad.Spec spec = new GeneratedLoad.Spec("step-" + rate, protocol, new Resource(path), path, rate, 0,
                        step, 1, idleTimeout);
                GeneratedLoad load = new GeneratedLoad(service, spec, Schedule.fixedRate(rate), report.directory());
                PhaseResult phase;
                try (Progress progress = progress("limit " + rate + "/s", rate * step.toSeconds())) {
                    phase = GeneratedLoad.runTogether(List.of(load),
                            deadline().within(step.plus(idleTimeout).plusMillis(ms).plusSeconds(5)), progress).get(0);
                }
                phases.add(phase);
                report.phase(phase);
                PhaseViews.noteShortfall(report, phase, rate * step.toSeconds());
                histograms.put(rate + "/s", load.histogram());
                double seconds = phase.durationSeconds();
                double timeouts = phase.count(Outcome.TIMEOUT) + phase.count(Outcome.UNANSWERED);
                throughput.get("offered").add(new double[] {rate, phase.sent() / Math.max(seconds, step.toSeconds())});
                throughput.get("2xx/s").add(new double[] {rate, phase.okPerSecond()});
                throughput.get("503/s").add(new double[] {rate, phase.count(Outcome.REJECTED_503) / seconds});
                throughput.get("reset/s").add(new double[] {rate, phase.count(Outcome.RESET) / seconds});
                throughput.get("timeout+unanswered/s").add(new double[] {rate, timeouts / seconds});
                latency.get("p50").add(new double[] {rate, phase.latencyMs().p50()});
                latency.get("p99").add(new double[] {rate, phase.latencyMs().p99()});
                latency.get("max").add(new double[] {rate, phase.latencyMs().max()});
                rows.add(List.of(Integer.toString(rate), Long.toString(phase.sent()), Report.num(phase.okPerSecond()),
                        pct(phase.count(Outcome.OK), phase.sent()), pct(phase.count(Outcome.REJECTED_503), phase.sent()),
                        pct(phase.count(Outcome.RESET), phase.sent()), pct((long) timeouts, phase.sent()),
                        pct(phase.sent() - phase.count(Outcome.OK) - phase.count(Outcome.REJECTED_503) - phase.count(Outcome.RESET) - (long) timeouts, phase.sent()),
                        Report.ms(phase.latencyMs().p50()), Report.ms(phase.latencyMs().p99()), Report.ms(phase.latencyMs().max()),
                        Report.num(phase.serverCpuPercent())));
                Thread.sleep(pause.toMillis());
            }
        }
        report.table(new Report.Table("Steps past capacity (" + protocol.label() + ", `" + path + "`)",
                List.of("offered/s", "sent", "2xx/s", "2xx %", "503 %", "reset %", "timeout %", "other %", "p50 ms", "p99 ms", "max ms", "server CPU %"),
                rows));
        report.table(PhaseViews.table("All steps in detail", phases));
        Plots.lines(report.directory().resolve("limit-throughput.png"), "Answers by kind against offered rate", "offered requests/s",
                "requests/s", throughput);
        report.plot("limit-throughput.png", "What became of the offered load at each step: 2xx, 503, resets and timeouts per second.");
        Plots.lines(report.directory().resolve("limit-latency.png"), "Latency of 2xx answers against offered rate", "offered requests/s",
                "ms", latency);
        report.plot("limit-latency.png", "p50, p99 and max latency (2xx, from the intended send) at each step.");
        PhaseViews.plots(report, "", phases, histograms, true);
    }

    private static String pct(long part, long whole) {
        return whole == 0 ? "–" : Report.num(Math.round(1000.0 * part / whole) / 10.0);
    }
}
