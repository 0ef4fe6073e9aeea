package com.example.threading.load.engine.recording;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

/**
 * One phase measured by several client processes at once, as one: outcomes added up, the 2xx latencies of every
 * process's interval log (.hlog, as {@link PhaseRecorder} writes it) added interval by interval with HdrHistogram into
 * one merged log, the duration the longest process's, the server's CPU as the first process measured it and the
 * tools' CPU added up. Per-second samples are merged by index: counts and CPU added, p50/p99/max the merged interval
 * histogram's.
 *
 * <p>Call it once every process has written its log.
 */
public final class MergedPhase {

    private MergedPhase() {
    }

    /** The merged result of {@code parts} (in process order, each with its .hlog in {@code folder}), its log written to {@code mergedLog}. */
    public static PhaseResult merge(String name, List<PhaseResult> parts, Path folder, Path mergedLog) throws IOException {
        List<List<Histogram>> logs = new ArrayList<>();
        for (PhaseResult part : parts) {
            logs.add(intervals(folder.resolve(part.histogramLog())));
        }
        int longest = logs.stream().mapToInt(List::size).max().orElse(0);
        List<Histogram> merged = new ArrayList<>();
        Histogram total = null;
        for (int i = 0; i < longest; i++) {
            Histogram interval = null;
            for (List<Histogram> log : logs) {
                if (i < log.size()) {
                    Histogram part = log.get(i);
                    if (interval == null) {
                        interval = new Histogram(part.getHighestTrackableValue(), part.getNumberOfSignificantValueDigits());
                        interval.setStartTimeStamp(part.getStartTimeStamp());
                        interval.setEndTimeStamp(part.getEndTimeStamp());
                    }
                    interval.add(part);
                }
            }
            merged.add(interval);
            if (total == null) {
                total = new Histogram(interval.getHighestTrackableValue(), interval.getNumberOfSignificantValueDigits());
            }
            total.add(interval);
        }
        write(merged, mergedLog, name);
        Map<String, Long> outcomes = new LinkedHashMap<>();
        long sent = 0;
        double seconds = 0;
        double toolCpu = 0;
        for (PhaseResult part : parts) {
            part.outcomes().forEach((outcome, count) -> outcomes.merge(outcome, count, Long::sum));
            sent += part.sent();
            seconds = Math.max(seconds, part.durationSeconds());
            toolCpu += part.toolCpuPercent();
        }
        long ok = outcomes.getOrDefault(Outcome.OK.name(), 0L);
        PhaseResult first = parts.get(0);
        return new PhaseResult(name, first.protocol(), first.path(), first.targetRatePerSecond(), seconds, sent, outcomes,
                seconds <= 0 ? 0 : LatencySummary.round(ok / seconds), total == null ? LatencySummary.of(new Histogram(3)) : LatencySummary.of(total),
                first.serverCpuPercent(), LatencySummary.round(toolCpu), mergedLog.getFileName().toString(), samples(parts, merged));
    }

    private static List<IntervalSample> samples(List<PhaseResult> parts, List<Histogram> merged) {
        int longest = parts.stream().mapToInt(part -> part.intervals().size()).max().orElse(0);
        List<IntervalSample> samples = new ArrayList<>();
        for (int i = 0; i < longest; i++) {
            IntervalSample base = null;
            long ok = 0;
            long rejected = 0;
            long others = 0;
            double toolCpu = 0;
            for (PhaseResult part : parts) {
                if (i < part.intervals().size()) {
                    IntervalSample sample = part.intervals().get(i);
                    base = base == null ? sample : base;
                    ok += sample.ok();
                    rejected += sample.rejected503();
                    others += sample.otherErrors();
                    toolCpu += sample.toolCpuPercent();
                }
            }
            Histogram h = i < merged.size() && merged.get(i) != null ? merged.get(i) : new Histogram(3);
            samples.add(new IntervalSample(base.atSeconds(), base.lengthSeconds(), ok, rejected, others, ms(h, 50), ms(h, 99),
                    h.getTotalCount() == 0 ? 0 : LatencySummary.round(h.getMaxValue() / 1000.0), base.serverCpuPercent(),
                    LatencySummary.round(toolCpu)));
        }
        return samples;
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : LatencySummary.round(h.getValueAtPercentile(percentile) / 1000.0);
    }

    private static List<Histogram> intervals(Path log) throws IOException {
        List<Histogram> intervals = new ArrayList<>();
        try (HistogramLogReader reader = new HistogramLogReader(log.toFile())) {
            EncodableHistogram interval;
            while ((interval = reader.nextIntervalHistogram()) != null) {
                intervals.add((Histogram) interval);
            }
        }
        return intervals;
    }

    private static void write(List<Histogram> intervals, Path file, String name) throws IOException {
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, "UTF-8")) {
            HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.outputComment("phase " + name + ": 2xx latencies in microseconds, the client processes' logs added interval by interval");
            writer.outputLogFormatVersion();
            long start = intervals.isEmpty() || intervals.get(0) == null ? System.currentTimeMillis() : intervals.get(0).getStartTimeStamp();
            writer.setBaseTime(start);
            writer.outputStartTime(start);
            writer.outputLegend();
            for (Histogram interval : intervals) {
                if (interval != null) {
                    writer.outputIntervalHistogram(interval);
                }
            }
        }
    }
}
