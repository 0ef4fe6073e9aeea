package com.example.threading.load.scenario.limit;

import com.example.threading.load.engine.http.GeneratedLoad;
import com.example.threading.load.engine.http.Load;
import com.example.threading.load.engine.http.Protocol;
import com.example.threading.load.engine.http.Schedule;
import com.example.threading.load.engine.recording.PhaseResult;
import com.example.threading.load.engine.recording.Progress;
import com.example.threading.load.report.Report;
import com.example.threading.load.scenario.ScenarioCommand;
import com.example.threading.load.service.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.mortbay.jetty.load.generator.Resource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The limit test: offered rates stepped past capacity, to see how the service degrades (503, resets or
 * timeouts), once per admission mode (server-level admission control on, off) on a fresh service each, so the
 * two can be read side by side at the same rates. Measures into {@link LimitStep} records; {@link LimitView}
 * presents them.
 */
@Command(name = "limit",
        description = "Steps the offered rate past capacity, with the service's admission control on and off: throughput, "
                + "error kinds (503 / reset / timeout / unanswered) and latency of 2xx and 503 per step.")
public final class LimitScenario extends ScenarioCommand {

    @Option(names = "--pattern", defaultValue = "blocking", description = "/work pattern (default: ${DEFAULT-VALUE})")
    String pattern;

    @Option(names = "--ms", defaultValue = "100", description = "Work per request in ms (default: ${DEFAULT-VALUE})")
    int ms;

    @Option(names = "--rates", split = ",", defaultValue = "1000,2000,4000,6000",
            description = "Offered rates in requests/s, one step each (default: ${DEFAULT-VALUE})")
    List<Integer> rates;

    @Option(names = "--step", defaultValue = "10s", description = "Length of each step (default: ${DEFAULT-VALUE})")
    Duration step;

    @Option(names = "--pause", defaultValue = "3s", description = "Quiet time between steps (default: ${DEFAULT-VALUE})")
    Duration pause;

    @Option(names = "--protocol", defaultValue = "HTTP1", description = "HTTP1 or H2C (default: ${DEFAULT-VALUE})")
    Protocol protocol;

    @Option(names = "--admission", split = ",", defaultValue = "on,off",
            description = "Admission modes, one fresh service each, all rates in each: on (fixed limit), off "
                    + "(ADMISSION_ENABLED=false), adaptive (ADMISSION_LIMIT=gradient2) (default: ${DEFAULT-VALUE})")
    List<AdmissionMode> admission;

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
        List<AdmissionMode> modes = admission.stream().distinct().toList();
        if (target().runningService().isPresent() && modes.size() > 1) {
            throw new IllegalArgumentException("--admission " + admission + " needs services the tool starts itself; with --url, "
                    + "give the one mode the running service is in, e.g. --admission on");
        }
        report.configure("path", path).configure("rates", rates).configure("admission", modes).configure("step", step)
                .configure("pause", pause).configure("protocol", protocol.label()).configure("client idle timeout", idleTimeout)
                .configure("service config", "config.yml defaults (Jetty maxThreads 200; admission on: 190 places, 190 queued "
                        + "for at most 1 s; bounded pool 50 threads + 50 queued) unless --env says otherwise");
        report.summary("A limit test, not a latency test: each step offers a fixed rate (open model: the sender does not wait "
                + "for answers) to `" + path + "` and counts how every request ended, once with the service's admission control "
                + "on and once off (a fresh service each), at the same rates. Past capacity a well-behaved service answers 503 "
                + "quickly; a badly-behaved one queues without bound (latency grows, then timeouts) or resets connections.");
        List<LimitStep> steps = new ArrayList<>();
        for (AdmissionMode mode : modes) {
            try (Target service = open(report, mode.environment(), List.of())) {
                for (int rate : rates) {
                    if (deadline().isUp()) {
                        report.note("Time limit reached: admission " + mode.label() + ", step " + rate + "/s and later skipped.");
                        break;
                    }
                    steps.add(step(report, service, mode, rate, path));
                    Thread.sleep(pause.toMillis());
                }
            }
        }
        LimitView.present(report, path, protocol, steps);
    }

    private LimitStep step(Report report, Target service, AdmissionMode mode, int rate, String path) throws InterruptedException {
        GeneratedLoad.Spec spec = new GeneratedLoad.Spec(mode.phaseName(rate), protocol, new Resource(path), path, rate, 0,
                step, 1, idleTimeout);
        GeneratedLoad load = new GeneratedLoad(service, spec, Schedule.fixedRate(rate), report.directory());
        PhaseResult phase;
        try (Progress progress = progress("limit, admission " + mode.label() + ", " + rate + "/s", rate * step.toSeconds())) {
            phase = Load.runTogether(List.of(load),
                    deadline().within(step.plus(idleTimeout).plusMillis(ms).plusSeconds(5)), progress).get(0);
        }
        LimitStep measured = new LimitStep(mode, rate, phase, load.histogram(), load.rejectedHistogram());
        LimitView.add(report, measured, step);
        return measured;
    }
}
