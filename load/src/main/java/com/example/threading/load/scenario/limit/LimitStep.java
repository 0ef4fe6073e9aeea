package com.example.threading.load.scenario.limit;

import com.example.threading.load.engine.recording.LatencySummary;
import com.example.threading.load.engine.recording.Outcome;
import com.example.threading.load.engine.recording.PhaseResult;
import org.HdrHistogram.Histogram;

/**
 * One step of the limit test: the admission mode of the service, the rate offered, the phase (how every request
 * ended), its 2xx latencies and its 503 latencies (both in microseconds, from the intended send).
 *
 * <p>Nobody may write to its histogram copies once it is made.
 */
record LimitStep(AdmissionMode admission, int offeredRate, PhaseResult phase, Histogram latencies, Histogram rejectedLatencies) {

    /** Requests reset, timed out at the client, or cut unanswered: the signs of a queue without bound. */
    long failed() {
        return phase.count(Outcome.RESET) + phase.count(Outcome.TIMEOUT) + phase.count(Outcome.UNANSWERED);
    }

    /** Requests that ended neither 2xx, nor 503, nor reset, nor timed out, nor unanswered. */
    long other() {
        return phase.sent() - phase.count(Outcome.OK) - phase.count(Outcome.REJECTED_503) - failed();
    }

    /** Percentiles of the 503 answers' latency. */
    LatencySummary rejectedLatencyMs() {
        return LatencySummary.of(rejectedLatencies);
    }
}
