package com.example.threading.load.engine.jvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A timer read off /prometheus text: count, sum and buckets, the difference of two readings and two instances together. */
class ServerMetricsTest {

    private static final String FAMILY = "events_event_to_last_write_seconds";

    private static String text(long under10ms, long under50ms, long all, double sum) {
        return "# TYPE " + FAMILY + " histogram\n"
                + FAMILY + "_bucket{le=\"0.01\"} " + under10ms + ".0\n"
                + FAMILY + "_bucket{le=\"0.05\"} " + under50ms + ".0\n"
                + FAMILY + "_bucket{le=\"+Inf\"} " + all + ".0\n"
                + FAMILY + "_count " + all + ".0\n"
                + FAMILY + "_sum " + sum + "\n"
                + "events_event_to_queued_seconds_count 999.0\nevents_event_to_queued_seconds_sum 1.0\n";
    }

    @Test
    void theDifferenceOfTwoReadingsIsTheDistributionInBetween() {
        ServerMetrics.Timer before = ServerMetrics.parse(text(5, 5, 5, 0.01), FAMILY);
        ServerMetrics.Timer after = ServerMetrics.parse(text(95, 104, 105, 1.51), FAMILY);
        ServerMetrics.Timer between = after.since(before);
        assertThat(between.count()).isEqualTo(100);
        assertThat(between.meanMs()).isCloseTo(15.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(between.atMostMs(0.5)).as("90 of 100 within 10 ms").isEqualTo(10.0);
        assertThat(between.atMostMs(0.99)).as("99 of 100 within 50 ms").isEqualTo(50.0);
        assertThat(between.atMostMs(1.0)).as("the last one only under +Inf").isInfinite();
    }

    @Test
    void twoInstancesAddUpAndNothingMeasuredIsNaN() {
        ServerMetrics.Timer one = ServerMetrics.parse(text(1, 2, 2, 0.02), FAMILY);
        ServerMetrics.Timer both = one.plus(ServerMetrics.parse(text(0, 0, 2, 0.2), FAMILY));
        assertThat(both.count()).isEqualTo(4);
        assertThat(both.buckets()).containsEntry(0.01, 1L).containsEntry(0.05, 2L).containsEntry(Double.POSITIVE_INFINITY, 4L);
        assertThat(one.since(one).meanMs()).isNaN();
        assertThat(one.since(one).atMostMs(0.99)).isNaN();
    }

    @Test
    void aMissingFamilyIsAnError() {
        assertThatThrownBy(() -> ServerMetrics.parse("other_count 1.0\n", FAMILY)).hasMessageContaining(FAMILY);
    }
}
