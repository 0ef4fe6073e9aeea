package com.example.threading.load.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrossCheckTest {

    @Test
    void readsH2loadsPerRequestLogCountingOnlyThe2xxInTheHistogram(@TempDir Path folder) throws Exception {
        Path log = Files.writeString(folder.resolve("h2load.tsv"), """
                1763900000000000\t200\t800
                1763900000010000\t200\t1200
                1763900000020000\t503\t90
                1763900000030000\t200\t45000
                1763900000040000\t-1\t
                1763900000050000\t2
                """);
        Histogram histogram = new Histogram(3);

        long[] counts = CrossCheck.readLog(log, histogram);

        assertThat(counts).containsExactly(4, 3);
        assertThat(histogram.getTotalCount()).isEqualTo(3);
        assertThat(histogram.getMinValue()).isEqualTo(800);
        assertThat(histogram.getMaxValue()).as("45 ms, to 3 significant digits").isBetween(45_000L, 45_100L);
        assertThat(CrossCheck.readLog(folder.resolve("absent.tsv"), histogram)).containsExactly(0, 0);
    }

    @Test
    void sharesTheRateOverConnectionsOf25PerSecondAndSpeaksTheProtocol() {
        URI url = URI.create("http://127.0.0.1:8080/work/blocking?ms=0");
        assertThat(CrossCheck.command(Path.of("/usr/bin/h2load"), url, Protocol.HTTP1, 100, Duration.ofSeconds(180), Path.of("/r/x.tsv")))
                .containsExactly("/usr/bin/h2load", "-c", "4", "-t", "1", "-m", "1", "--rps", "25.000", "-D", "180",
                        "--log-file", "/r/x.tsv", "--h1", url.toString());
        assertThat(CrossCheck.command(Path.of("h2load"), url, Protocol.H2C, 10, Duration.ofSeconds(5), Path.of("/r/x.tsv")))
                .containsSequence("-c", "1").containsSequence("--rps", "10.000").doesNotContain("--h1").endsWith(url.toString());
    }
}
