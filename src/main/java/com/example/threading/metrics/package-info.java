/**
 * Infrastructure shared by every pattern: all Dropwizard metrics in Prometheus conventions at
 * {@link com.example.threading.metrics.PrometheusBundle#PATH} on the admin port: snake_case names in base units, the
 * pattern, pool or connector as a label, latencies as histograms with buckets. The names come from a table of
 * metric-name patterns ({@code NameMapping}), so the patterns import nothing from here.
 *
 * <p>Threads: set up once on the start-up thread; timers and histograms record into their Prometheus histograms on
 * whatever thread updates them; each scrape runs on an admin connector thread and reads the thread-safe registries.
 *
 * <p>Entry class: {@link com.example.threading.metrics.PrometheusBundle}, a Dropwizard bundle
 * ({@code bootstrap.addBundle(new PrometheusBundle())}). To copy: the package, with
 * {@code io.prometheus:prometheus-metrics-core} and {@code io.prometheus:prometheus-metrics-exporter-servlet-jakarta}.
 */
package com.example.threading.metrics;
