package com.example.threading.load.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlotsTest {

    /**
     * The publish → read latencies of one topics run (997,800 deliveries, p50 1.4 s, max 5.6 s, percentiles to
     * 99.9999%): with "99.9%"-style tick labels XChart 3.8.8 never finished the x axis (minutes of CPU, no report).
     * The bound is a hang's, not a speed's: the plot takes well under a second.
     */
    @Test
    void aPercentilePlotOfAHistogramThatOnceHungXChartIsWritten(@TempDir Path out) throws Exception {
        Histogram latency = read("topics-delivery-997800.hlog");
        assertThat(latency.getTotalCount()).isEqualTo(997_800);
        Path png = out.resolve("percentiles.png");
        assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> Plots.percentiles(png, "Publish → read latency by percentile", Map.of("topics", latency)));
        assertThat(png).isNotEmptyFile();
    }

    private static Histogram read(String resource) throws Exception {
        try (InputStream log = PlotsTest.class.getResourceAsStream(resource)) {
            HistogramLogReader reader = new HistogramLogReader(log);
            Histogram all = null;
            EncodableHistogram interval;
            while ((interval = reader.nextIntervalHistogram()) != null) {
                if (all == null) {
                    all = ((Histogram) interval).copy();
                } else {
                    all.add((Histogram) interval);
                }
            }
            return all;
        }
    }
}
