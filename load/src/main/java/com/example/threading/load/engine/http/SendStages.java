package com.example.threading.load.engine.http;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Where a request's time goes inside the tool, in three stages that add up to its latency: the sender's lag
 * (intended send time → the generator queued it: the sender thread was late, e.g. descheduled or paused by GC),
 * the client's queue (queued → a connection began sending it: waiting for a connection or a client thread), and
 * the exchange (begin → complete: the wire, the server, and the client reading the answer). Microseconds, any
 * outcome.
 *
 * <p>Thread-safety: the generator's sender thread records the lag, the client's threads the other two, at the
 * same time; each stage is an HdrHistogram {@link Recorder} (wait-free for writers). {@link #histograms()} is
 * called by the owner once the phase is over (its copy then holds every value recorded before).
 */
public final class SendStages {

    /** Stage names, in the order a request passes them. */
    public static final String SENDER_LAG = "sender lag (intended → queued)";
    /** Waiting in the client for a connection. */
    public static final String CLIENT_QUEUE = "client queue (queued → begin)";
    /** On the wire and in the server. */
    public static final String EXCHANGE = "exchange (begin → complete)";

    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(30);

    private final Recorder senderLag = new Recorder(HIGHEST_MICROS, 2);
    private final Recorder clientQueue = new Recorder(HIGHEST_MICROS, 2);
    private final Recorder exchange = new Recorder(HIGHEST_MICROS, 2);
    private final Map<String, Histogram> totals = new LinkedHashMap<>();

    void senderLag(long nanos) {
        senderLag.recordValue(micros(nanos));
    }

    void clientQueue(long nanos) {
        clientQueue.recordValue(micros(nanos));
    }

    void exchange(long nanos) {
        exchange.recordValue(micros(nanos));
    }

    /** Every stage's histogram so far (µs), by name in the order above; each call adds what was recorded since the last. */
    public synchronized Map<String, Histogram> histograms() {
        add(SENDER_LAG, senderLag);
        add(CLIENT_QUEUE, clientQueue);
        add(EXCHANGE, exchange);
        Map<String, Histogram> copies = new LinkedHashMap<>();
        totals.forEach((name, histogram) -> copies.put(name, histogram.copy()));
        return copies;
    }

    private void add(String name, Recorder recorder) {
        totals.computeIfAbsent(name, ignored -> new Histogram(HIGHEST_MICROS, 2)).add(recorder.getIntervalHistogram());
    }

    private static long micros(long nanos) {
        return Math.min(HIGHEST_MICROS, Math.max(0, TimeUnit.NANOSECONDS.toMicros(nanos)));
    }
}
