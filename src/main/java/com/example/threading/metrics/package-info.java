/**
 * Infrastructure shared by every pattern: all Dropwizard metrics in Prometheus text format at
 * {@link com.example.threading.metrics.PrometheusBundle#PATH} on the admin port.
 *
 * <p>Threads: registered once on the start-up thread; each scrape runs on an admin connector thread and reads
 * the thread-safe metric registry.
 *
 * <p>Entry class: {@link com.example.threading.metrics.PrometheusBundle}, a Dropwizard bundle
 * ({@code bootstrap.addBundle(new PrometheusBundle())}). To copy: the class, with
 * {@code io.prometheus:prometheus-metrics-instrumentation-dropwizard} and
 * {@code io.prometheus:prometheus-metrics-exporter-servlet-jakarta}.
 */
package com.example.threading.metrics;
