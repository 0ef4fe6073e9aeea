package com.example.threading.load.engine.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class OutcomeTest {

    @Test
    void statusesMapToTheirOutcomeAtTheEdgesOfEachRange() {
        assertThat(Outcome.ofStatus(199)).isEqualTo(Outcome.OTHER_STATUS);
        assertThat(Outcome.ofStatus(200)).isEqualTo(Outcome.OK);
        assertThat(Outcome.ofStatus(204)).isEqualTo(Outcome.OK);
        assertThat(Outcome.ofStatus(299)).isEqualTo(Outcome.OK);
        assertThat(Outcome.ofStatus(300)).isEqualTo(Outcome.OTHER_STATUS);
        assertThat(Outcome.ofStatus(500)).isEqualTo(Outcome.OTHER_STATUS);
        assertThat(Outcome.ofStatus(501)).isEqualTo(Outcome.UNAVAILABLE_501);
        assertThat(Outcome.ofStatus(503)).isEqualTo(Outcome.REJECTED_503);
        assertThat(Outcome.ofStatus(0)).isEqualTo(Outcome.OTHER_STATUS);
    }

    @Test
    void failuresAreClassifiedByTheFirstTellingCauseInTheChain() {
        assertThat(Outcome.ofFailure(new ExecutionException(new TimeoutException("idle")))).isEqualTo(Outcome.TIMEOUT);
        assertThat(Outcome.ofFailure(new RejectedExecutionException("queue full"))).isEqualTo(Outcome.CLIENT_REJECTED);
        assertThat(Outcome.ofFailure(new EOFException())).isEqualTo(Outcome.RESET);
        assertThat(Outcome.ofFailure(new ClosedChannelException())).isEqualTo(Outcome.RESET);
        assertThat(Outcome.ofFailure(new ConnectException("Connection refused"))).isEqualTo(Outcome.RESET);
        assertThat(Outcome.ofFailure(new IOException("Connection reset by peer"))).isEqualTo(Outcome.RESET);
        assertThat(Outcome.ofFailure(new IOException("Broken pipe"))).isEqualTo(Outcome.RESET);
        assertThat(Outcome.ofFailure(new IllegalStateException("boom"))).isEqualTo(Outcome.OTHER_FAILURE);
        assertThat(Outcome.ofFailure(new IllegalStateException((String) null))).isEqualTo(Outcome.OTHER_FAILURE);
        assertThat(Outcome.ofFailure(new IOException("wrapper", new TimeoutException()))).as("a timeout beneath a reset-looking wrapper")
                .isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void latencySummariesAreInMillisecondsRoundedToAMicrosecondAndEmptyMeansZero() {
        assertThat(LatencySummary.of(new Histogram(3))).isEqualTo(new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0));
        Histogram micros = new Histogram(3);
        for (int i = 1; i <= 1000; i++) {
            micros.recordValue(i * 1000L);
        }
        LatencySummary summary = LatencySummary.of(micros);
        assertThat(summary.count()).isEqualTo(1000);
        assertThat(summary.min()).isEqualTo(1.0);
        assertThat(summary.p50()).isBetween(499.0, 501.0);
        assertThat(summary.p99()).isBetween(989.0, 991.0);
        assertThat(summary.max()).isBetween(999.0, 1001.0);
        assertThat(summary.mean()).isBetween(500.0, 501.0);
        assertThat(LatencySummary.round(1.23456)).isEqualTo(1.235);
        assertThat(LatencySummary.round(Double.NaN)).isNaN();
    }
}
