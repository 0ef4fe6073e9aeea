package com.example.threading.metrics;

import com.codahale.metrics.LockFreeExponentiallyDecayingReservoir;
import com.codahale.metrics.Reservoir;
import com.codahale.metrics.Snapshot;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;

/**
 * A Dropwizard reservoir that also hands every value to a Prometheus histogram's series: what a Dropwizard timer or
 * histogram built on it records is then in both, {@code /metrics} keeping its decaying sample and {@code /prometheus}
 * its cumulative buckets. Timers record nanoseconds, which {@code scale} turns into seconds.
 *
 * <p>{@link #update} may run on any number of threads at once, as a Dropwizard timer's does: Dropwizard's
 * {@link LockFreeExponentiallyDecayingReservoir} and the client's histogram series both take concurrent updates, and
 * {@link #getSnapshot()} may run beside them.
 */
final class ObservingReservoir implements Reservoir {

    private final Reservoir sample = LockFreeExponentiallyDecayingReservoir.builder().build();
    private final DistributionDataPoint series;
    private final double scale;

    ObservingReservoir(DistributionDataPoint series, double scale) {
        this.series = series;
        this.scale = scale;
    }

    @Override
    public int size() {
        return sample.size();
    }

    /** Records {@code value} in the sample and, scaled, in the Prometheus series. */
    @Override
    public void update(long value) {
        sample.update(value);
        series.observe(value * scale);
    }

    @Override
    public Snapshot getSnapshot() {
        return sample.getSnapshot();
    }
}
