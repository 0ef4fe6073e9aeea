package com.example.threading.metrics;

import com.codahale.metrics.MetricRegistry;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.prometheus.metrics.exporter.servlet.jakarta.PrometheusMetricsServlet;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Serves every Dropwizard metric in Prometheus conventions on the admin port at {@code /prometheus}: snake_case names
 * in base units, {@code _total} counters, one family per measurement with the pattern, pool or connector as a label
 * ({@code executor_threads{pool="work-cached"}}), latencies as histograms with buckets from 1 ms to a minute
 * ({@code work_request_duration_seconds_bucket{pattern="cached",le="1"}}). {@code /metrics} (JSON) is unchanged.
 * <pre>{@code
 * bootstrap.addBundle(new PrometheusBundle());
 * }</pre>
 *
 * <p>How: {@link #initialize} gives the application a Dropwizard registry ({@link HistogramRecordingRegistry}) whose
 * timers and histograms also record into native Prometheus histograms, so add this bundle before any code registers
 * metrics (Dropwizard registers its own at {@code run}); the names and labels come from {@link NameMapping}, a table
 * of metric-name patterns. Code that registers metrics imports nothing from here.
 */
public final class PrometheusBundle implements ConfiguredBundle<Object> {

    /** Path of the scrape endpoint on the admin connector. */
    public static final String PATH = "/prometheus";

    private final PrometheusRegistry prometheus = new PrometheusRegistry();
    private final HistogramRecordingRegistry metrics = new HistogramRecordingRegistry(prometheus);

    /** Makes the application's metric registry one that records timers and histograms as Prometheus histograms too. */
    @Override
    public void initialize(Bootstrap<?> bootstrap) {
        MetricRegistry before = bootstrap.getMetricRegistry();
        metrics.registerAll(before); // anything registered before this bundle was added
        bootstrap.setMetricRegistry(metrics);
    }

    /** Exports the registry's metrics and the native histograms, and mounts the servlet. */
    @Override
    public void run(Object configuration, Environment environment) {
        if (environment.metrics() != metrics) {
            throw new IllegalStateException("the metric registry was replaced after PrometheusBundle.initialize: "
                    + "add PrometheusBundle after whatever replaces it");
        }
        prometheus.register(new DropwizardFamilies(metrics));
        environment.admin().addServlet("prometheus", new PrometheusMetricsServlet(prometheus)).addMapping(PATH);
    }
}
