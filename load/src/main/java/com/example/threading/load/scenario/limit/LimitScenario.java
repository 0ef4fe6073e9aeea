package com.example.threading.load.scenario.limit;

import com.example.threading.load.engine.GeneratedLoad;
import com.example.threading.load.engine.PhaseResult;
import com.example.threading.load.engine.Progress;
import com.example.threading.load.engine.Protocol;
import com.example.threading.load.engine.Schedule;
import com.example.threading.load.report.Report;
import com.example.threading.load.scenario.ScenarioCommand;
import com.example.threading.load.target.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.mortbay.jetty.load.generator.Resource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The limit test: offered rates stepped past capacity, to see how the service degrades (503, resets or
 * timeouts). Measures into {@link LimitStep} records; {@link LimitView} presents them.
 */
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
        List<LimitStep> steps = new ArrayList<>();
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
                LimitStep measured = new LimitStep(rate, phase, load.histogram());
                LimitView.add(report, measured, step);
                steps.add(measured);
                Thread.sleep(pause.toMillis());
            }
        }
        LimitView.present(report, path, protocol, step, steps);
    }
}
