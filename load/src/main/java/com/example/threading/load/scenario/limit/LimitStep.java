package com.example.threading.load.scenario.limit;

import com.example.threading.load.engine.Outcome;
import com.example.threading.load.engine.PhaseResult;
import org.HdrHistogram.Histogram;

/**
 * One step of the limit test: the rate offered, the phase (how every request ended) and its 2xx latencies.
 *
 * <p>Thread-safety: immutable once measured (nobody writes to the histogram copy).
 */
record LimitStep(int offeredRate, PhaseResult phase, Histogram latencies) {

    /** Requests the client gave up on or that the deadline left open: the signs of a queue without bound. */
    long timedOut() {
        return phase.count(Outcome.TIMEOUT) + phase.count(Outcome.UNANSWERED);
    }

    /** Requests that ended neither 2xx, nor 503, nor reset, nor timed out. */
    long other() {
        return phase.sent() - phase.count(Outcome.OK) - phase.count(Outcome.REJECTED_503) - phase.count(Outcome.RESET) - timedOut();
    }
}
