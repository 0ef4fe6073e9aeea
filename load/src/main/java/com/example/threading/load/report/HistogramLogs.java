package com.example.threading.load.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * A whole-run histogram written as an HdrHistogram log (one interval), for re-analysis with HdrHistogram's tools.
 */
public final class HistogramLogs {

    private HistogramLogs() {
    }

    /** Writes {@code histogram} to {@code file}, with {@code comment} (e.g. its unit) at the top. */
    public static void write(Path file, String comment, Histogram histogram) throws IOException {
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), true, StandardCharsets.UTF_8)) {
            HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.outputComment(comment);
            writer.outputLogFormatVersion();
            writer.outputLegend();
            writer.outputIntervalHistogram(histogram);
        }
    }
}
