package com.example.threading.metrics;

import com.codahale.metrics.MetricFilter;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Environment;
import io.prometheus.metrics.exporter.servlet.jakarta.PrometheusMetricsServlet;
import io.prometheus.metrics.instrumentation.dropwizard.DropwizardExports;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Set;

/**
 * Serves every Dropwizard metric in Prometheus text format on the admin port at {@code /prometheus}.
 * <pre>{@code
 * bootstrap.addBundle(new PrometheusBundle());
 * }</pre>
 *
 * <p>Prometheus reserves the suffixes {@code _total}, {@code _created}, {@code _info} and {@code _bucket}:
 * the bridge strips them from names, so {@code x.created} (a thread factory's meter) and a meter {@code x}
 * would both become {@code x_total}, and a duplicate name fails the whole scrape. Metrics whose last name
 * segment is such a suffix are therefore left out here; they stay on {@code /metrics}.
 *
 * <p>Thread-safety: Dropwizard calls {@link #run} once, on the start-up thread; each scrape then runs on an admin
 * connector thread, and the bridge reads the thread-safe metric registry afresh every time.
 */
public final class PrometheusBundle implements ConfiguredBundle<Object> {

    /** Path of the scrape endpoint on the admin connector. */
    public static final String PATH = "/prometheus";

    private static final Set<String> RESERVED_SUFFIXES = Set.of("total", "created", "info", "bucket");

    /** Bridges the environment's metric registry into a Prometheus registry and mounts the servlet. */
    @Override
    public void run(Object configuration, Environment environment) {
        PrometheusRegistry registry = new PrometheusRegistry();
        DropwizardExports.builder()
                .dropwizardRegistry(environment.metrics())
                .metricFilter(withoutReservedSuffix())
                .register(registry);
        environment.admin().addServlet("prometheus", new PrometheusMetricsServlet(registry)).addMapping(PATH);
    }

    private static MetricFilter withoutReservedSuffix() {
        return (name, metric) -> !RESERVED_SUFFIXES.contains(name.substring(name.lastIndexOf('.') + 1));
    }
}
