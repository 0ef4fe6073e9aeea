package com.example.threading.load.scenario.cost;

import com.example.threading.load.engine.http.H2loadStretch;
import java.util.Optional;

/**
 * What one endpoint's stretch measured: h2load's run (empty when the endpoint was not loaded), why it was not loaded
 * ("" when it was), and for the long poll the events published during the measured stretch, the failed publishes and
 * the longest wait between two answered ones over the whole run (a parked poll waited at most that long).
 */
record Measurement(Endpoint endpoint, Optional<H2loadStretch.Result> run, String notLoaded, long publishes, long publishFailures,
                   double longestPublishGapSeconds) {

    /** An endpoint that was not loaded, and why (e.g. "not available on JDK 17 (needs 21+)"). */
    static Measurement notLoaded(Endpoint endpoint, String why) {
        return new Measurement(endpoint, Optional.empty(), why, 0, 0, Double.NaN);
    }

    /** An endpoint loaded without events beside it. */
    static Measurement loaded(Endpoint endpoint, H2loadStretch.Result run) {
        return new Measurement(endpoint, Optional.of(run), "", 0, 0, Double.NaN);
    }

    /** Whether the stretch was measured and every request in it answered 2xx: the only runs whose figures count. */
    boolean counts() {
        return run.isPresent() && run.get().measured() && run.get().summary().orElseThrow().all2xx() && run.get().summary().get().status2xx() > 0;
    }
}
