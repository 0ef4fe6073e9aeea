package com.example.threading.load.scenario.probe;

import com.example.threading.load.engine.jvm.GcPauses;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * What one protocol's recording says about where the probe's tail comes from: the GC pauses of the tool (the
 * loaders' JVM), of the probe's own JVM with {@code --probe-process}, and of the service during the recording, and the probe's time per stage inside the tool (sender lag, client queue,
 * exchange; µs histograms by stage name, see {@code engine.SendStages}), and the whole machine's CPU during
 * the recording (% of all cores, every process's), from which the view subtracts the server's and the tool's.
 *
 * <p>Nobody may write to its histogram copies once it is made.
 */
record TailSources(GcPauses toolPauses, GcPauses servicePauses, Map<String, Histogram> probeStages,
                   Optional<GcPauses> probeProcessPauses, double machineCpuPercent) {

    TailSources {
        probeStages = Collections.unmodifiableMap(new LinkedHashMap<>(probeStages));
    }
}
