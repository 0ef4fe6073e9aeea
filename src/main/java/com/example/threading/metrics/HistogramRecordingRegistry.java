package com.example.threading.metrics;

import com.codahale.metrics.Histogram;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The application's Dropwizard registry, with one difference: every timer and histogram made through
 * {@link #timer(String)} or {@link #histogram(String)} also records into a native Prometheus histogram with buckets
 * (the family and labels from {@link NameMapping}). Dropwizard timers keep a decaying sample, which Prometheus can only
 * show as per-instance quantiles; buckets add up across instances. Code that registers metrics needs no change and no
 * import from this package.
 *
 * <p>Thread-safety: as {@link MetricRegistry}: metrics may be made from any thread at any time. A name's histogram
 * family is created once, under {@link ConcurrentHashMap#computeIfAbsent}; a timer or histogram joins the recorded
 * names when it is made, before the registry's concurrent map publishes it. So a scrape thread that sees the metric in
 * the registry also sees it in {@link #recordsNatively} (never exporting it a second time, as a summary).
 */
final class HistogramRecordingRegistry extends MetricRegistry {

    private static final double NANOS_TO_SECONDS = 1e-9;

    private final PrometheusRegistry prometheus;
    private final Map<String, io.prometheus.metrics.core.metrics.Histogram> families = new ConcurrentHashMap<>();
    private final Set<String> recorded = ConcurrentHashMap.newKeySet();

    /** Records natively into families registered with {@code prometheus}. */
    HistogramRecordingRegistry(PrometheusRegistry prometheus) {
        this.prometheus = prometheus;
    }

    /** A timer whose updates are also observed, in seconds, by its Prometheus histogram. */
    @Override
    public Timer timer(String name) {
        return timer(name, () -> {
            Timer timer = new Timer(new ObservingReservoir(series(name, Buckets.SECONDS), NANOS_TO_SECONDS));
            recorded.add(name);
            return timer;
        });
    }

    /** A histogram whose updates are also observed by its Prometheus histogram (bucketed as counts). */
    @Override
    public Histogram histogram(String name) {
        return histogram(name, () -> {
            Histogram histogram = new Histogram(new ObservingReservoir(series(name, Buckets.COUNTS), 1));
            recorded.add(name);
            return histogram;
        });
    }

    /** Whether the Dropwizard metric {@code name} is recorded into a native Prometheus histogram. */
    boolean recordsNatively(String name) {
        return recorded.contains(name);
    }

    /** Whether {@code family} is one of the native histogram families (other metrics must not use its name). */
    boolean hasHistogramFamily(String family) {
        return families.containsKey(family);
    }

    private DistributionDataPoint series(String name, double[] buckets) {
        MappedName mapped = NameMapping.map(name);
        io.prometheus.metrics.core.metrics.Histogram family = families.computeIfAbsent(mapped.family(),
                familyName -> io.prometheus.metrics.core.metrics.Histogram.builder()
                        .name(familyName)
                        .help("Dropwizard " + mapped.template(name) + ", recorded as a histogram")
                        .labelNames(mapped.labelNames().toArray(String[]::new))
                        .classicUpperBounds(buckets)
                        .classicOnly()
                        .register(prometheus));
        return family.labelValues(mapped.labelValues().toArray(String[]::new));
    }
}
