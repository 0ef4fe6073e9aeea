package com.example.threading.load.scenario.wave;

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
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.mortbay.jetty.load.generator.Resource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * "Know thy threadpool": waves of concurrent requests to each /work pattern (each wave is one resource
 * tree whose children the generator sends in parallel), then the {@link Fanout} part: /fanout by each
 * {@code via}. Measures into {@link PatternWaves} records; {@link WaveView} presents them.
 */
@Command(name = "wave",
        description = "Waves of concurrent requests against each /work pattern, then /fanout by each via: table of wave times.")
public final class WaveScenario extends ScenarioCommand {

    @Option(names = "--patterns", split = ",", description = "Patterns (default: ${DEFAULT-VALUE})",
            defaultValue = "blocking,thread-per-request,cached,bounded,virtual")
    List<String> patterns;

    @Option(names = "--concurrency", defaultValue = "100", description = "Requests per wave (default: ${DEFAULT-VALUE})")
    int concurrency;

    @Option(names = "--waves", defaultValue = "3", description = "Waves per pattern (default: ${DEFAULT-VALUE})")
    int waves;

    @Option(names = "--ms", defaultValue = "1000", description = "Simulated work per request in ms (default: ${DEFAULT-VALUE})")
    int ms;

    @Option(names = "--pause", defaultValue = "500ms",
            description = "Quiet time between waves, so a pool's threads are back before the next wave (default: ${DEFAULT-VALUE})")
    Duration pause;

    @Mixin
    Fanout fanout;

    /** A run with this scenario's defaults, filled in by picocli. */
    public WaveScenario() {
        super(Duration.ofSeconds(900));
    }

    @Override
    protected void run(Report report) throws Exception {
        report.configure("patterns", patterns).configure("concurrency", concurrency).configure("waves", waves).configure("ms", ms).configure("pause", pause);
        fanout.configure(report);
        report.configure("service config", "config.yml defaults (Jetty maxThreads 200, bounded pool 50 threads + 50 queued)");
        report.summary("Each wave sends " + concurrency + " requests at once to `/work/{pattern}?ms=" + ms + "` and waits for all "
                + "of them; the wave time is from the first send to the last answer. The article: a new thread per request "
                + "costs 30–60 ms per wave, a warm cached pool 2–10 ms over the 1 s, a fixed pool of 50 makes half the "
                + "requests take 2 s.");
        try (Target service = open(report, Map.of(), List.of())) {
            List<PatternWaves> measured = new ArrayList<>();
            for (String pattern : patterns) {
                if (deadline().isUp()) {
                    report.note("Time limit reached: pattern " + pattern + " skipped.");
                    continue;
                }
                PatternWaves patternWaves = waves(service, pattern, report);
                WaveView.add(report, patternWaves);
                measured.add(patternWaves);
            }
            WaveView.present(report, measured, concurrency, waves, ms);
            Optional<FanoutCalls> calls = fanout.run(service.applicationUri(), waves, deadline(), report);
            if (calls.isPresent()) {
                FanoutView.present(report, calls.get());
            }
        }
    }

    /** The waves of one pattern, until they are done or the deadline has passed. */
    private PatternWaves waves(Target service, String pattern, Report report) throws InterruptedException {
        String path = "/work/" + pattern + "?ms=" + ms;
        Histogram latencies = new Histogram(3);
        List<PhaseResult> phases = new ArrayList<>();
        for (int w = 1; w <= waves && !deadline().isUp(); w++) {
            Thread.sleep(pause.toMillis());
            Resource[] children = new Resource[concurrency];
            for (int i = 0; i < concurrency; i++) {
                children[i] = new Resource(path);
            }
            GeneratedLoad.Spec spec = new GeneratedLoad.Spec(pattern + "-wave-" + w, Protocol.HTTP1, new Resource(children), path,
                    0, 1, Duration.ZERO, 1, Duration.ofMillis(ms).plusSeconds(90));
            GeneratedLoad load = new GeneratedLoad(service, spec, Schedule.allAtOnce(), report.directory());
            try (Progress progress = progress(pattern + " wave " + w, concurrency)) {
                phases.add(Load.runTogether(List.of(load), deadline().within(Duration.ofMillis(3L * ms).plusSeconds(120)), progress).get(0));
            }
            latencies.add(load.histogram());
        }
        return new PatternWaves(pattern, phases, latencies);
    }
}
