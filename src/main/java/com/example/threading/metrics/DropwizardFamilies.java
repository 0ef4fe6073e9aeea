package com.example.threading.metrics;

import com.codahale.metrics.Counting;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Meter;
import com.codahale.metrics.Metric;
import com.codahale.metrics.Sampling;
import com.codahale.metrics.Snapshot;
import com.codahale.metrics.Timer;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot.InfoDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot.SummaryDataPointSnapshot;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every Dropwizard metric of the registry as Prometheus families, named and labelled by {@link NameMapping}: the
 * metrics that map to one family (e.g. every pool's {@code *.running}) become that family's labelled series. Timers
 * and histograms the registry records natively are left to their Prometheus histograms. Only the rules' documented
 * skips are left out; a metric that cannot be exported (a text gauge with no rule, a name two metrics share) is logged
 * once at WARN, never dropped silently, and never fails the scrape.
 *
 * <p>The Prometheus client's own Dropwizard bridge ({@code DropwizardExports}) makes one family per Dropwizard metric,
 * so labels that put several metrics in one family would give duplicate family names, which fail the whole scrape;
 * hence this collector, built on the client's snapshot model (the client writes the exposition format).
 *
 * <p>Thread-safety: {@link #collect()} runs on scrape threads, possibly several at once. Each call builds its families
 * in local objects from the thread-safe registry, read afresh; the only state shared between calls is the set of names
 * already warned about, a concurrent set, so each name is logged once however many scrapes race.
 */
final class DropwizardFamilies implements MultiCollector {

    private static final Logger LOG = LoggerFactory.getLogger(DropwizardFamilies.class);

    private final HistogramRecordingRegistry registry;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    DropwizardFamilies(HistogramRecordingRegistry registry) {
        this.registry = registry;
    }

    /** One snapshot per family, from the registry as it is now. */
    @Override
    public MetricSnapshots collect() {
        Map<String, Family> families = new TreeMap<>();
        registry.getMetrics().forEach((name, metric) -> {
            if (!registry.recordsNatively(name)) {
                add(families, name, metric);
            }
        });
        MetricSnapshots.Builder snapshots = MetricSnapshots.builder();
        families.values().forEach(family -> {
            try {
                snapshots.metricSnapshot(family.snapshot());
            } catch (IllegalArgumentException invalid) { // e.g. a name Prometheus reserves: this family only, not the scrape
                warnOnce(family.firstMetric, invalid.getMessage());
            }
        });
        return snapshots.build();
    }

    private void add(Map<String, Family> families, String name, Metric metric) {
        MappedName mapped = NameMapping.map(name);
        ExportKind kind = kindOf(mapped, metric);
        if (kind == ExportKind.SKIP) {
            return;
        }
        if (registry.hasHistogramFamily(mapped.family())) {
            warnOnce(name, "its family " + mapped.family() + " is a recorded histogram");
            return;
        }
        Family family = families.computeIfAbsent(mapped.family(), ignored -> new Family(mapped.family(), kind, name, mapped));
        Labels labels = Labels.of(mapped.labelNames(), mapped.labelValues());
        if (family.kind != kind) {
            warnOnce(name, "its family " + mapped.family() + " is already a " + family.kind + ", not a " + kind);
        } else if (!family.labelSets.add(labels)) {
            warnOnce(name, "another metric already has family " + mapped.family() + " with labels " + labels);
        } else {
            try {
                if (!family.add(metric, labels, mapped.scale())) {
                    warnOnce(name, "its value is not a number");
                }
            } catch (RuntimeException unreadable) { // a gauge that throws: this metric only, not the scrape
                warnOnce(name, "reading it failed: " + unreadable);
            }
        }
    }

    private static ExportKind kindOf(MappedName mapped, Metric metric) {
        if (mapped.kind() != ExportKind.BY_TYPE) {
            return mapped.kind();
        }
        if (metric instanceof Meter) {
            return ExportKind.COUNTER;
        }
        return metric instanceof Sampling ? ExportKind.SUMMARY : ExportKind.GAUGE;
    }

    private void warnOnce(String name, String why) {
        if (warned.add(name)) {
            LOG.warn("Dropwizard metric {} is not on /prometheus: {}", name, why);
        }
    }

    /** The series of one family as they are gathered. */
    private static final class Family {
        private final String name;
        private final ExportKind kind;
        private final String help;
        private final String firstMetric;
        private final Set<Labels> labelSets = new HashSet<>();
        private final List<Object> dataPoints = new ArrayList<>();

        Family(String name, ExportKind kind, String firstMetric, MappedName mapped) {
            this.name = name;
            this.kind = kind;
            this.help = "Dropwizard " + mapped.template(firstMetric);
            this.firstMetric = firstMetric;
        }

        boolean add(Metric metric, Labels labels, double scale) {
            if (kind == ExportKind.INFO) {
                Object value = ((Gauge<?>) metric).getValue();
                dataPoints.add(InfoDataPointSnapshot.builder().labels(labels.add("value", String.valueOf(value))).build());
                return true;
            }
            if (kind == ExportKind.SUMMARY) {
                Snapshot sample = ((Sampling) metric).getSnapshot();
                double factor = metric instanceof Timer ? 1e-9 : 1;
                dataPoints.add(SummaryDataPointSnapshot.builder().labels(labels).count(((Counting) metric).getCount())
                        .quantiles(Quantiles.builder()
                                .quantile(0.5, sample.getMedian() * factor)
                                .quantile(0.99, sample.get99thPercentile() * factor).build())
                        .build());
                return true;
            }
            Double value = numberOf(metric);
            if (value == null) {
                return false;
            }
            dataPoints.add(kind == ExportKind.COUNTER
                    ? CounterDataPointSnapshot.builder().labels(labels).value(value * scale).build()
                    : GaugeDataPointSnapshot.builder().labels(labels).value(value * scale).build());
            return true;
        }

        MetricSnapshot snapshot() {
            switch (kind) {
                case COUNTER -> {
                    CounterSnapshot.Builder counters = CounterSnapshot.builder().name(name).help(help);
                    dataPoints.forEach(point -> counters.dataPoint((CounterDataPointSnapshot) point));
                    return counters.build();
                }
                case GAUGE -> {
                    GaugeSnapshot.Builder gauges = GaugeSnapshot.builder().name(name).help(help);
                    dataPoints.forEach(point -> gauges.dataPoint((GaugeDataPointSnapshot) point));
                    return gauges.build();
                }
                case INFO -> {
                    InfoSnapshot.Builder infos = InfoSnapshot.builder().name(name).help(help);
                    dataPoints.forEach(point -> infos.dataPoint((InfoDataPointSnapshot) point));
                    return infos.build();
                }
                default -> {
                    SummarySnapshot.Builder summaries = SummarySnapshot.builder().name(name).help(help);
                    dataPoints.forEach(point -> summaries.dataPoint((SummaryDataPointSnapshot) point));
                    return summaries.build();
                }
            }
        }
    }

    private static Double numberOf(Metric metric) {
        if (metric instanceof Counting counting) {
            return (double) counting.getCount();
        }
        Object value = metric instanceof Gauge<?> gauge ? gauge.getValue() : null;
        if (value instanceof Number number) {
            return number.doubleValue();
        }
        if (value instanceof Boolean bool) {
            return bool ? 1.0 : 0.0;
        }
        return null;
    }
}
