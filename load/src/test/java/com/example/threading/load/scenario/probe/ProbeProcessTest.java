package com.example.threading.load.scenario.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ProbeProcessTest {

    @Test
    void aHistogramCrossesFromTheChildToTheParentIntact() {
        Histogram histogram = new Histogram(3);
        for (long micros = 100; micros <= 100_000; micros *= 10) {
            histogram.recordValueWithCount(micros, micros / 100);
        }

        Histogram decoded = ProbeProcess.decode(ProbeProcess.encode(histogram));

        assertThat(decoded).isEqualTo(histogram);
        assertThat(decoded.getTotalCount()).isEqualTo(1 + 10 + 100 + 1000);
    }

    @Test
    void refusesWhatIsNotAnEncodedHistogram() {
        assertThatThrownBy(() -> ProbeProcess.decode("bm90IGEgaGlzdG9ncmFt")).isInstanceOf(RuntimeException.class);
    }
}
