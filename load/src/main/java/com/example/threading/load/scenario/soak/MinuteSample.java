package com.example.threading.load.scenario.soak;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One minute of a soak, from the service's one-second samples and its GC log: the lowest heap left after a
 * collection in that minute (MB; NaN when no collection ran), the highest heap used, threads and open files, the
 * highest value of each extra gauge, and the server's average CPU (% of all cores).
 *
 * <p>Thread-safety: immutable.
 */
record MinuteSample(int minute, double heapAfterGcMb, double heapUsedMaxMb, double threadsMax, double openFilesMax,
                    Map<String, Double> gaugesMax, double serverCpuPercent) {

    MinuteSample {
        gaugesMax = Collections.unmodifiableMap(new LinkedHashMap<>(gaugesMax));
    }
}
