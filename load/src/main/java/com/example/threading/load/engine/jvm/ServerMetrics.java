package com.example.threading.load.engine.jvm;

import com.example.threading.load.engine.http.SimpleHttp;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongPredicate;

/**
 * The service's own figures from its admin port: gauges and meter counts from {@code /metrics}, and a timer's exact count,
 * sum and buckets from {@code /prometheus} (the service records its timers as Prometheus histograms, so the sum moves by
 * exactly one batch's time when the count moves by one, and the buckets' difference between two readings is the
 * distribution in between; {@code /metrics}' decaying reservoir can give neither).
 *
 * <p>Thread-safety: any thread, as {@link SimpleHttp}.
 */
public final class ServerMetrics implements AutoCloseable {

    /** The service's timer of each batch, from an event's arrival to its last answer written, as /prometheus names it. */
    public static final String EVENT_TO_LAST_WRITE = "events_event_to_last_write_seconds";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** A histogram's count and sum (seconds), and its cumulative bucket counts by upper bound (seconds; +Inf last). */
    public record Timer(long count, double sumSeconds, Map<Double, Long> buckets) {

        /** The count, sum and buckets recorded between {@code before} and this reading. */
        public Timer since(Timer before) {
            Map<Double, Long> between = new TreeMap<>();
            buckets.forEach((le, count) -> between.put(le, count - before.buckets().getOrDefault(le, 0L)));
            return new Timer(count - before.count(), sumSeconds - before.sumSeconds(), between);
        }

        /** This reading and {@code other}'s together (e.g. two instances'). */
        public Timer plus(Timer other) {
            Map<Double, Long> both = new TreeMap<>(buckets);
            other.buckets().forEach((le, count) -> both.merge(le, count, Long::sum));
            return new Timer(count + other.count(), sumSeconds + other.sumSeconds(), both);
        }

        /** Mean in milliseconds; NaN with no count. */
        public double meanMs() {
            return count == 0 ? Double.NaN : sumSeconds * 1000 / count;
        }

        /** The upper bound (ms) of the bucket that holds quantile {@code q} (0..1): the quantile is at most this; NaN with no count. */
        public double atMostMs(double q) {
            for (Map.Entry<Double, Long> bucket : buckets.entrySet()) {
                if (count > 0 && bucket.getValue() >= Math.ceil(q * count)) {
                    return bucket.getKey() * 1000;
                }
            }
            return Double.NaN;
        }
    }

    private final URI metrics;
    private final URI prometheus;
    private final SimpleHttp http = SimpleHttp.http1();

    /** Reads the service whose admin connector is {@code admin}. */
    public ServerMetrics(URI admin) {
        this.metrics = admin.resolve("/metrics");
        this.prometheus = admin.resolve("/prometheus");
    }

    /** A gauge's value, or a meter's or counter's count; NaN when absent. */
    public double value(String name) throws InterruptedException {
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
    public double awaitValue(String name, LongPredicate test, long deadlineNanos) throws InterruptedException {
        double value = value(name);
        while (!test.test((long) value) && System.nanoTime() < deadlineNanos) {
            Thread.sleep(50);
            value = value(name);
        }
        return value;
    }

    /** The count, sum and buckets of the Prometheus histogram {@code family} (e.g. events_event_to_last_write_seconds). */
    public Timer timer(String family) throws InterruptedException {
        SimpleHttp.Answer answer = http.get(prometheus, TIMEOUT);
        if (answer.status() != 200) {
            throw new IllegalStateException("GET " + prometheus + ": " + (answer.status() == 0 ? answer.failure() : "status " + answer.status()));
        }
        return parse(answer.body(), family);
    }

    /** The count, sum and buckets of {@code family} in Prometheus text. */
    static Timer parse(String text, String family) {
        long count = -1;
        double sum = Double.NaN;
        Map<Double, Long> buckets = new TreeMap<>();
        String bucket = family + "_bucket{le=\"";
        for (String line : text.split("\n")) {
            if (line.startsWith(family + "_count ")) {
                count = (long) Double.parseDouble(line.substring(family.length() + 7).trim());
            } else if (line.startsWith(family + "_sum ")) {
                sum = Double.parseDouble(line.substring(family.length() + 5).trim());
            } else if (line.startsWith(bucket)) {
                int end = line.indexOf('"', bucket.length());
                String le = line.substring(bucket.length(), end);
                buckets.put(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le),
                        (long) Double.parseDouble(line.substring(line.indexOf(' ', end) + 1).trim()));
            }
        }
        if (count < 0 || Double.isNaN(sum)) {
            throw new IllegalStateException("no " + family + "_count and _sum on /prometheus");
        }
        return new Timer(count, sum, buckets);
    }

    @Override
    public void close() {
        http.close();
    }
}
