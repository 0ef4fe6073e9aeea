package com.example.threading.load.scenario.sse;

import com.example.threading.load.engine.JvmWatch;
import com.example.threading.load.engine.SimpleHttp;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.function.LongPredicate;

/**
 * The service's own figures from its admin port: gauges and meter counts from {@code /metrics}, and a timer's exact count
 * and sum from {@code /prometheus} (the service records its timers as Prometheus histograms, so the sum moves by exactly
 * one batch's time when the count moves by one; {@code /metrics}' decaying reservoir cannot give one batch's value).
 *
 * <p>Thread-safety: any thread, as {@link SimpleHttp}.
 */
final class ServerMetrics implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** A histogram's count and sum (seconds). */
    record Timer(long count, double sumSeconds) {
    }

    private final URI metrics;
    private final URI prometheus;
    private final SimpleHttp http = SimpleHttp.http1();

    ServerMetrics(URI admin) {
        this.metrics = admin.resolve("/metrics");
        this.prometheus = admin.resolve("/prometheus");
    }

    /** A gauge's value, or a meter's or counter's count; NaN when absent. */
    double value(String name) throws InterruptedException {
        SimpleHttp.Answer answer = http.get(metrics, TIMEOUT);
        if (answer.status() != 200) {
            throw new IllegalStateException("GET " + metrics + ": " + (answer.status() == 0 ? answer.failure() : "status " + answer.status()));
        }
        try {
            return JvmWatch.metric(JSON.readTree(answer.body()), name);
        } catch (IOException e) {
            throw new IllegalStateException("not the JSON of /metrics: " + e.getMessage(), e);
        }
    }

    /** Waits until {@code name}'s value passes {@code test} or the deadline; its last value. */
    double awaitValue(String name, LongPredicate test, long deadlineNanos) throws InterruptedException {
        double value = value(name);
        while (!test.test((long) value) && System.nanoTime() < deadlineNanos) {
            Thread.sleep(50);
            value = value(name);
        }
        return value;
    }

    /** The count and sum of the Prometheus histogram {@code family} (e.g. events_event_to_last_write_seconds). */
    Timer timer(String family) throws InterruptedException {
        SimpleHttp.Answer answer = http.get(prometheus, TIMEOUT);
        if (answer.status() != 200) {
            throw new IllegalStateException("GET " + prometheus + ": " + (answer.status() == 0 ? answer.failure() : "status " + answer.status()));
        }
        return parse(answer.body(), family);
    }

    /** The count and sum of {@code family} in Prometheus text. */
    static Timer parse(String text, String family) {
        long count = -1;
        double sum = Double.NaN;
        for (String line : text.split("\n")) {
            if (line.startsWith(family + "_count ")) {
                count = (long) Double.parseDouble(line.substring(family.length() + 7).trim());
            } else if (line.startsWith(family + "_sum ")) {
                sum = Double.parseDouble(line.substring(family.length() + 5).trim());
            }
        }
        if (count < 0 || Double.isNaN(sum)) {
            throw new IllegalStateException("no " + family + "_count and _sum on /prometheus");
        }
        return new Timer(count, sum);
    }

    @Override
    public void close() {
        http.close();
    }
}
