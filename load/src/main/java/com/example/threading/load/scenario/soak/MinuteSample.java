package com.example.threading.load.scenario.soak;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One minute of a soak, from the service's one-second samples, the forced full collections and its GC log: the
 * live heap (heap used right after the minute's last forced full GC, MB; NaN when none was forced or read) and the
 * old generation then, the lowest heap any other collection left (MB; NaN when none ran — young and mixed
 * collections leave old garbage that waits for the next marking cycle, so this is not the live heap), the highest
 * heap used, threads and open files, the highest value of each extra gauge, and the server's average CPU (% of all
 * cores).
 */
record MinuteSample(int minute, double liveHeapAfterFullGcMb, double oldGenAfterFullGcMb, double lowestHeapAfterGcMb,
                    double heapUsedMaxMb, double threadsMax, double openFilesMax, Map<String, Double> gaugesMax,
                    double serverCpuPercent) {

    MinuteSample {
        gaugesMax = Collections.unmodifiableMap(new LinkedHashMap<>(gaugesMax));
    }
}
