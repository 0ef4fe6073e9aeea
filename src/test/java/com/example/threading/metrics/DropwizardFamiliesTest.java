package com.example.threading.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Timer;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The registry and the collector in-process, on metrics built for each case: timers become bucketed histograms with
 * the value in seconds, several metrics one labelled family, and what cannot be exported is left out alone.
 */
class DropwizardFamiliesTest {

    final PrometheusRegistry prometheus = new PrometheusRegistry();
    final HistogramRecordingRegistry metrics = new HistogramRecordingRegistry(prometheus);

    DropwizardFamiliesTest() {
        prometheus.register(new DropwizardFamilies(metrics));
    }

    @Test
    void aTimersUpdatesLandInItsBucketsInSecondsUnderItsPatternLabel() throws IOException {
        metrics.timer("work.cached.response-time").update(1_200, TimeUnit.MILLISECONDS);
        metrics.timer("work.bounded.response-time").update(3, TimeUnit.MILLISECONDS);

        String text = scrape();

        assertThat(text).contains("work_request_duration_seconds_bucket{pattern=\"cached\",le=\"1.0\"} 0",
                "work_request_duration_seconds_bucket{pattern=\"cached\",le=\"1.25\"} 1",
                "work_request_duration_seconds_sum{pattern=\"cached\"} 1.2",
                "work_request_duration_seconds_bucket{pattern=\"bounded\",le=\"0.005\"} 1");
        assertThat(metrics.timer("work.cached.response-time").getSnapshot().getMax()).as("/metrics keeps its sample")
                .isEqualTo(TimeUnit.MILLISECONDS.toNanos(1_200));
    }

    @Test
    void metricsOfOneMeasurementAreOneFamilyWithTheirLabelsAndTheirTypes() throws IOException {
        metrics.counter("work-cached.running").inc(3);
        metrics.counter("jersey-client-fanout.running").inc();
        metrics.meter("work.bounded.rejected").mark(2);
        metrics.register("jvm.gc.G1-Young-Generation.time", (Gauge<Long>) () -> 1500L);

        String text = scrape();

        assertThat(text).contains("# TYPE executor_threads gauge", "executor_threads{pool=\"work-cached\"} 3.0",
                "executor_threads{pool=\"jersey-client-fanout\"} 1.0", "# TYPE work_rejected_total counter",
                "work_rejected_total{pattern=\"bounded\"} 2.0", "jvm_gc_collection_seconds_total{gc=\"G1-Young-Generation\"} 1.5");
    }

    @Test
    void aTimerMadeWithoutTheRegistryIsASummaryAndATextOrThrowingGaugeIsLeftOutAloneWithoutFailingTheScrape() throws IOException {
        Timer plain = metrics.register("some.plain.timer", new Timer());
        plain.update(2, TimeUnit.SECONDS);
        metrics.register("some.text", (Gauge<String>) () -> "not a number");
        metrics.register("some.broken", (Gauge<Integer>) () -> {
            throw new IllegalStateException("broken gauge");
        });
        metrics.register("events.parked", (Gauge<Integer>) () -> 7);
        Counter count = metrics.counter("events.topics.live");
        count.inc(2);

        String text = scrape();

        assertThat(text).contains("# TYPE some_plain_timer summary", "some_plain_timer{quantile=\"0.99\"} 2.0",
                "events_parked 7.0", "events_topics_live 2.0").doesNotContain("some_text").doesNotContain("some_broken");
    }

    private String scrape() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new PrometheusTextFormatWriter(false).write(out, prometheus.scrape(), EscapingScheme.DEFAULT);
        return out.toString(StandardCharsets.UTF_8);
    }
}
