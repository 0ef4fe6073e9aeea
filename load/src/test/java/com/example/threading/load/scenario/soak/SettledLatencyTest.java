package com.example.threading.load.scenario.soak;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.engine.recording.LatencySummary;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettledLatencyTest {

    private static final long BASE_MS = 1_700_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void leavesOutTheIntervalsBeforeTheSettledMark() throws Exception {
        // Written as PhaseRecorder writes it: one interval a second, microseconds. Seconds 0-2 are a warm-up at 5 s,
        // seconds 3-9 answer in 2 ms.
        Path log = dir.resolve("phase.hlog");
        try (PrintStream out = new PrintStream(Files.newOutputStream(log), false, "UTF-8")) {
            HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.outputLogFormatVersion();
            writer.setBaseTime(BASE_MS);
            writer.outputStartTime(BASE_MS);
            writer.outputLegend();
            for (int second = 0; second < 10; second++) {
                writer.outputIntervalHistogram(second(second, second < 3 ? 5_000_000 : 2_000, 100));
            }
        }

        LatencySummary whole = SettledLatency.of(log, 0).orElseThrow();
        LatencySummary settled = SettledLatency.of(log, 3).orElseThrow();

        assertThat(whole.count()).isEqualTo(1_000);
        assertThat(whole.p99()).isGreaterThan(4_000);
        assertThat(settled.count()).isEqualTo(700);
        assertThat(settled.max()).isBetween(1.9, 2.1);
        assertThat(settled.p99()).isBetween(1.9, 2.1);
    }

    @Test
    void aLogWithNothingAfterTheMarkHasNoSettledLatency() throws Exception {
        Path log = dir.resolve("short.hlog");
        try (PrintStream out = new PrintStream(Files.newOutputStream(log), false, "UTF-8")) {
            HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.setBaseTime(BASE_MS);
            writer.outputStartTime(BASE_MS);
            writer.outputIntervalHistogram(second(0, 1_000, 10));
        }

        assertThat(SettledLatency.of(log, 60)).isEqualTo(Optional.empty());
    }

    private static Histogram second(int second, long micros, int count) {
        Histogram histogram = new Histogram(60_000_000L, 3);
        histogram.recordValueWithCount(micros, count);
        histogram.setStartTimeStamp(BASE_MS + second * 1000L);
        histogram.setEndTimeStamp(BASE_MS + (second + 1) * 1000L);
        return histogram;
    }
}
