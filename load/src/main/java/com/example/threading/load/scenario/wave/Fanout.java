package com.example.threading.load.scenario.wave;

import com.example.threading.load.engine.http.SimpleHttp;
import com.example.threading.load.report.Report;
import com.example.threading.load.scenario.Deadline;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The client side of "know thy threadpool", the wave scenario's second part: one /fanout request at a time,
 * {@code waves} times per {@code via}, each fanning out {@code --fanout-n} calls on the service's Rx client.
 * Its options are a picocli mixin of the wave command; it measures into {@link FanoutCalls}, which
 * {@link FanoutView} presents.
 */
final class Fanout {

    @Option(names = "--vias", split = ",", defaultValue = "managed,rxjava,callback,common",
            description = "/fanout client variants (default: ${DEFAULT-VALUE})")
    List<String> vias;

    @Option(names = "--fanout-n", defaultValue = "100", description = "Calls per /fanout request (default: ${DEFAULT-VALUE})")
    int fanoutN;

    @Option(names = "--fanout-ms", defaultValue = "1000", description = "Work per fanned-out call in ms (default: ${DEFAULT-VALUE})")
    int fanoutMs;

    @Option(names = "--fanout-timeout", defaultValue = "150s", description = "Give up on one /fanout call after (default: ${DEFAULT-VALUE})")
    Duration fanoutTimeout;

    /** Shows the fan-out options in the report's configuration. */
    void configure(Report report) {
        report.configure("vias", vias).configure("fanout n", fanoutN).configure("fanout ms", fanoutMs)
                .configure("fanout timeout", fanoutTimeout);
    }

    /**
     * Calls /fanout {@code waves} times per via until the deadline; empty (with a note) when the service has
     * no /fanout. Calls the deadline cut are skipped with a note.
     */
    Optional<FanoutCalls> run(URI base, int waves, Deadline deadline, Report report) throws InterruptedException {
        Map<String, List<FanoutCalls.Call>> byVia = new LinkedHashMap<>();
        try (SimpleHttp http = SimpleHttp.http1()) {
            SimpleHttp.Answer probe = http.get(base.resolve("/fanout?n=1&ms=0&via=" + vias.get(0)), Duration.ofSeconds(30));
            if (probe.status() == 404) {
                report.note("/fanout answered 404: the endpoint does not exist in this build, the fan-out part was skipped.");
                return Optional.empty();
            }
            for (String via : vias) {
                List<FanoutCalls.Call> calls = new ArrayList<>();
                for (int w = 1; w <= waves; w++) {
                    if (deadline.isUp()) {
                        report.note("Time limit reached: /fanout via=" + via + " wave " + w + " skipped.");
                        break;
                    }
                    long remaining = Math.max(1, (deadline.nanos() - System.nanoTime()) / 1_000_000);
                    Duration timeout = fanoutTimeout.toMillis() < remaining ? fanoutTimeout : Duration.ofMillis(remaining);
                    long start = System.nanoTime();
                    SimpleHttp.Answer answer = http.get(base.resolve("/fanout?n=" + fanoutN + "&ms=" + fanoutMs + "&via=" + via), timeout);
                    calls.add(new FanoutCalls.Call(w, answer, (System.nanoTime() - start) / 1e6));
                }
                byVia.put(via, calls);
            }
        }
        return Optional.of(new FanoutCalls(fanoutN, fanoutMs, byVia));
    }
}
