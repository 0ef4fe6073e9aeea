package com.example.threading.load.scenario.probe;

import com.example.threading.load.engine.http.CrossCheck;
import com.example.threading.load.engine.http.Protocol;
import com.example.threading.load.engine.recording.Outcome;
import com.example.threading.load.engine.recording.PhaseResult;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * The recording of one protocol: the recorded phases (the probe first, then each loader) and their 2xx latency
 * histograms by phase name, the loaders taken together (their rate, as given or as the rate search left it), h2load's
 * view of the same recording when {@code --cross-check} ran it, and where the probe's tail came from.
 *
 * <p>Nobody may write to its histogram copies once it is made.
 */
record ProtocolRun(Protocol protocol, List<PhaseResult> recorded, Map<String, Histogram> histograms, LoaderRun loaders,
                   Optional<CrossCheck.Result> crossCheck, TailSources tail) {

    ProtocolRun {
        if (recorded.isEmpty()) {
            throw new IllegalArgumentException("a protocol run records at least its probe");
        }
        recorded = List.copyOf(recorded);
        histograms = Collections.unmodifiableMap(new LinkedHashMap<>(histograms));
    }

    /** The probe's phase: the latency a user would see. */
    PhaseResult probe() {
        return recorded.get(0);
    }

    /** The server's CPU during the recording (% of all cores): the probe's reading, or a loader's when the probe ran in its own JVM. */
    double serverCpuPercent() {
        return recorded.stream().mapToDouble(PhaseResult::serverCpuPercent).filter(Double::isFinite).findFirst().orElse(Double.NaN);
    }

    /** 2xx answers per second of all loaders together, over the probe's duration. */
    double loaderOkPerSecond() {
        long loaderOk = recorded.subList(1, recorded.size()).stream().mapToLong(phase -> phase.count(Outcome.OK)).sum();
        return loaderOk / probe().durationSeconds();
    }
}
