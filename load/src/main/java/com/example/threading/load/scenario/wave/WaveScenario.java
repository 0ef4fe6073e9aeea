package com.example.threading.load.scenario.wave;

import com.example.threading.load.engine.GeneratedLoad;
import com.example.threading.load.engine.LatencySummary;
import com.example.threading.load.engine.Outcome;
import com.example.threading.load.engine.PhaseResult;
import com.example.threading.load.engine.Progress;
import com.example.threading.load.engine.Protocol;
import com.example.threading.load.engine.Schedule;
import com.example.threading.load.engine.SimpleHttp;
import com.example.threading.load.report.Plots;
import com.example.threading.load.report.Report;
import com.example.threading.load.scenario.ScenarioCommand;
import com.example.threading.load.target.Target;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.mortbay.jetty.load.generator.Resource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * "Know thy threadpool": waves of concurrent requests to each /work pattern (each wave is one resource
 * tree whose children the generator sends in parallel), then /fanout by each {@code via}.
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

    @Option(names = "--vias", split = ",", defaultValue = "managed,rxjava,callback,common",
            description = "/fanout client variants (default: ${DEFAULT-VALUE})")
    List<String> vias;

    @Option(names = "--fanout-n", defaultValue = "100", description = "Calls per /fanout request (default: ${DEFAULT-VALUE})")
    int fanoutN;

    @Option(names = "--fanout-ms", defaultValue = "1000", description = "Work per fanned-out call in ms (default: ${DEFAULT-VALUE})")
    int fanoutMs;

    @Option(names = "--fanout-timeout", defaultValue = "150s", description = "Give up on one /fanout call after (default: ${DEFAULT-VALUE})")
    Duration fanoutTimeout;


    /** A run with this scenario's defaults, filled in by picocli. */
    public WaveScenario() {
        super(Duration.ofSeconds(900));
    }

    @Override
    protected void run(Report report) throws Exception {
        report.configure("patterns", patterns).configure("concurrency", concurrency).configure("waves", waves).configure("ms", ms).configure("pause", pause)
                .configure("vias", vias).configure("fanout n", fanoutN).configure("fanout ms", fanoutMs)
                .configure("fanout timeout", fanoutTimeout).configure("service config", "config.yml defaults (Jetty maxThreads 200, bounded pool 50 threads + 50 queued)");
        report.summary("Each wave sends " + concurrency + " requests at once to `/work/{pattern}?ms=" + ms + "` and waits for all "
                + "of them; the wave time is from the first send to the last answer. The article: a new thread per request "
                + "costs 30–60 ms per wave, a warm cached pool 2–10 ms over the 1 s, a fixed pool of 50 makes half the "
                + "requests take 2 s.");
        try (Target service = open(report, Map.of(), List.of())) {
            runWaves(report, service);
            runFanout(report, service);
        }
    }

    private void runWaves(Report report, Target service) throws Exception {
        List<List<String>> rows = new ArrayList<>();
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        List<String> categories = new ArrayList<>();
        Map<String, List<Double>> waveSeries = new LinkedHashMap<>();
        for (int w = 1; w <= waves; w++) {
            waveSeries.put("wave " + w, new ArrayList<>());
        }
        Map<String, Object> data = new LinkedHashMap<>();
        for (String pattern : patterns) {
            if (deadline().isUp()) {
                report.note("Time limit reached: pattern " + pattern + " skipped.");
                continue;
            }
            String path = "/work/" + pattern + "?ms=" + ms;
            Histogram all = new Histogram(3);
            List<Double> waveTimes = new ArrayList<>();
            long sent = 0;
            long ok = 0;
            long unavailable = 0;
            Map<String, Long> outcomes = new LinkedHashMap<>();
            for (int w = 1; w <= waves && !deadline().isUp(); w++) {
                Thread.sleep(pause.toMillis());
                Resource[] children = new Resource[concurrency];
                for (int i = 0; i < concurrency; i++) {
                    children[i] = new Resource(path);
                }
                GeneratedLoad.Spec spec = new GeneratedLoad.Spec(pattern + "-wave-" + w, Protocol.HTTP1, new Resource(children), path,
                        0, 1, Duration.ZERO, 1, Duration.ofMillis(ms).plusSeconds(90));
                GeneratedLoad load = new GeneratedLoad(service, spec, Schedule.allAtOnce(), report.directory());
                PhaseResult phase;
                try (Progress progress = progress(pattern + " wave " + w, concurrency)) {
                    phase = GeneratedLoad.runTogether(List.of(load), deadline().within(Duration.ofMillis(3L * ms).plusSeconds(120)), progress).get(0);
                }
                report.phase(phase);
                all.add(load.histogram());
                sent += phase.sent();
                ok += phase.count(Outcome.OK);
                unavailable += phase.count(Outcome.UNAVAILABLE_501);
                phase.outcomes().forEach((key, value) -> outcomes.merge(key, value, Long::sum));
                // Every request was meant to leave at the wave's start: the slowest answer is the wave time.
                waveTimes.add(phase.count(Outcome.OK) == phase.sent() ? phase.latencyMs().max() : Double.NaN);
            }
            histograms.put(pattern, all);
            LatencySummary latency = LatencySummary.of(all);
            String note = unavailable == sent && sent > 0 ? "501: pattern unavailable on the server's JDK (virtual threads need 21+)"
                    : ok == sent ? "" : "not all 2xx: " + nonZero(outcomes);
            if (!note.isEmpty()) {
                report.note(pattern + ": " + note);
            }
            List<String> row = new ArrayList<>();
            row.add(pattern);
            for (int w = 0; w < waves; w++) {
                row.add(w < waveTimes.size() && !Double.isNaN(waveTimes.get(w)) ? Report.num(Math.round(waveTimes.get(w))) : "–");
            }
            double best = waveTimes.stream().mapToDouble(Double::doubleValue).filter(v -> !Double.isNaN(v)).min().orElse(Double.NaN);
            row.add(Report.num(Double.isNaN(best) ? best : Math.round(best - ms)));
            row.add(latency.count() == 0 ? "–" : Report.ms(latency.p50()));
            row.add(latency.count() == 0 ? "–" : Report.ms(latency.max()));
            row.add(ok + " / " + sent);
            row.add(note.isEmpty() ? "" : note);
            rows.add(row);
            if (unavailable != sent || sent == 0) {
                categories.add(pattern);
                for (int w = 1; w <= waves; w++) {
                    double value = w <= waveTimes.size() ? waveTimes.get(w - 1) : Double.NaN;
                    waveSeries.get("wave " + w).add(Double.isNaN(value) ? 0.0 : value);
                }
            }
            data.put(pattern, Map.of("waveMs", waveTimes, "sent", sent, "ok", ok, "outcomes", outcomes, "latencyMs", latency));
        }
        List<String> header = new ArrayList<>(List.of("pattern"));
        for (int w = 1; w <= waves; w++) {
            header.add("wave " + w + " ms");
        }
        header.addAll(List.of("best − " + ms + " ms", "p50 ms", "max ms", "2xx / sent", "note"));
        report.table(new Report.Table("Wave times (" + concurrency + " concurrent × " + waves + " waves, ms=" + ms + ")", header, rows));
        report.data("waves", data);
        Plots.bars(report.directory().resolve("waves.png"), "Wave time by pattern (" + concurrency + " concurrent, ms=" + ms + ")",
                "ms", categories, waveSeries);
        report.plot("waves.png", "Time from the first send to the last answer of each wave, per pattern.");
        Plots.percentiles(report.directory().resolve("percentiles.png"), "Request latency by percentile, all waves", histograms);
        report.plot("percentiles.png", "Latency of every request of every wave, by percentile.");
    }

    private void runFanout(Report report, Target service) throws Exception {
        URI base = service.applicationUri();
        List<List<String>> rows = new ArrayList<>();
        Map<String, Object> data = new LinkedHashMap<>();
        ObjectMapper json = new ObjectMapper();
        try (SimpleHttp http = SimpleHttp.http1()) {
            SimpleHttp.Answer probe = http.get(base.resolve("/fanout?n=1&ms=0&via=" + vias.get(0)), Duration.ofSeconds(30));
            if (probe.status() == 404) {
                report.note("/fanout answered 404: the endpoint does not exist in this build, the fan-out part was skipped.");
                return;
            }
            for (String via : vias) {
                List<Object> calls = new ArrayList<>();
                for (int w = 1; w <= waves; w++) {
                    if (deadline().isUp()) {
                        report.note("Time limit reached: /fanout via=" + via + " wave " + w + " skipped.");
                        break;
                    }
                    long remaining = Math.max(1, (deadline().nanos() - System.nanoTime()) / 1_000_000);
                    Duration timeout = fanoutTimeout.toMillis() < remaining ? fanoutTimeout : Duration.ofMillis(remaining);
                    long start = System.nanoTime();
                    SimpleHttp.Answer answer = http.get(base.resolve("/fanout?n=" + fanoutN + "&ms=" + fanoutMs + "&via=" + via), timeout);
                    double clientMs = (System.nanoTime() - start) / 1e6;
                    Map<String, Object> call = new LinkedHashMap<>();
                    call.put("status", answer.status());
                    call.put("clientMs", LatencySummary.round(clientMs));
                    String elapsed = "–";
                    String threads = "–";
                    String errors = answer.status() == 0 ? answer.outcome().label() : "";
                    if (answer.status() == 200) {
                        JsonNode body = json.readTree(answer.body());
                        elapsed = body.path("elapsedMs").asText("–");
                        threads = body.path("distinctThreads").asText("–");
                        JsonNode errorNode = body.path("errors");
                        errors = errorNode.isContainerNode() ? Integer.toString(errorNode.size()) : errorNode.asText("");
                        call.put("body", body);
                    } else if (answer.status() != 0) {
                        errors = "HTTP " + answer.status();
                        call.put("body", answer.body());
                    }
                    calls.add(call);
                    rows.add(List.of(via, Integer.toString(w), Report.num(Math.round(clientMs)), elapsed, threads, errors));
                }
                data.put(via, calls);
            }
        }
        report.table(new Report.Table("/fanout (n=" + fanoutN + ", ms=" + fanoutMs + ")",
                List.of("via", "wave", "client ms", "server elapsedMs", "distinct threads", "errors"), rows));
        report.data("fanout", data);
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
