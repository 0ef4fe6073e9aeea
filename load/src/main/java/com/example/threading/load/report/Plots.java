package com.example.threading.load.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The PNG charts of a report, drawn with XChart.
 */
public final class Plots {

    private static final int WIDTH = 1000;
    private static final int HEIGHT = 560;

    private Plots() {
    }

    /**
     * Latency by percentile, the usual HdrHistogram view: x is log10(1/(1-p)), the percentile's number of nines (1 is
     * 90%, 2 is 99%, 3 is 99.9%), so the tail gets the room; one line per histogram (microseconds, drawn in ms). The x
     * axis keeps XChart's own number labels and says what they mean in its title: with a custom tick formatter
     * ("99.9%" at 3), XChart 3.8.8's tick calculator never ends on some histograms (e.g. 997,800 values reaching
     * 99.9999%), and a report that never gets written is worse than a plainer axis.
     */
    public static void percentiles(Path file, String title, Map<String, Histogram> histograms) throws IOException {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("percentile, in nines: 1 = 90%, 2 = 99%, 3 = 99.9%, 4 = 99.99%, ...").yAxisTitle("latency (ms)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        histograms.forEach((name, histogram) -> {
            if (histogram.getTotalCount() == 0) {
                return;
            }
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (HistogramIterationValue value : histogram.percentiles(5)) {
                double percentile = value.getPercentileLevelIteratedTo();
                if (percentile >= 100.0) {
                    break;
                }
                xs.add(Math.log10(100.0 / (100.0 - percentile)));
                ys.add(value.getValueIteratedTo() / 1000.0);
            }
            if (!xs.isEmpty()) {
                chart.addSeries(name + " (n=" + histogram.getTotalCount() + ")", xs, ys).setMarker(SeriesMarkers.NONE);
            }
        });
        save(chart, file, chart.getSeriesMap().isEmpty());
    }

    /** Lines over time: one series per name, x in seconds. */
    public static void overTime(Path file, String title, String yTitle, Map<String, List<double[]>> series) throws IOException {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("time (s)").yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        series.forEach((name, points) -> {
            if (points.isEmpty()) {
                return;
            }
            double[] xs = points.stream().mapToDouble(point -> point[0]).toArray();
            double[] ys = points.stream().mapToDouble(point -> Double.isNaN(point[1]) ? 0 : point[1]).toArray();
            chart.addSeries(name, xs, ys).setMarker(SeriesMarkers.NONE);
        });
        save(chart, file, chart.getSeriesMap().isEmpty());
    }

    /** Grouped bars: one group per category, one bar per series. */
    public static void bars(Path file, String title, String yTitle, List<String> categories, Map<String, List<Double>> series) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("").yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        series.forEach((name, values) -> chart.addSeries(name, categories, values));
        save(chart, file, categories.isEmpty() || series.isEmpty());
    }

    /** Lines against a numeric x (e.g. offered rate), with markers. */
    public static void lines(Path file, String title, String xTitle, String yTitle, Map<String, List<double[]>> series) throws IOException {
        lines(file, title, xTitle, yTitle, series, false);
    }

    /**
     * Lines against a numeric x, with markers; {@code logarithmicY} for values spanning decades (e.g. a 2 ms refusal
     * next to a 10 s queue), where points at or below zero are left out (a log axis has no place for them).
     */
    public static void lines(Path file, String title, String xTitle, String yTitle, Map<String, List<double[]>> series,
                             boolean logarithmicY) throws IOException {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setYAxisLogarithmic(logarithmicY);
        series.forEach((name, points) -> {
            List<double[]> drawn = logarithmicY ? points.stream().filter(p -> p[1] > 0).toList() : points;
            if (!drawn.isEmpty()) {
                chart.addSeries(name, drawn.stream().mapToDouble(p -> p[0]).toArray(),
                        drawn.stream().mapToDouble(p -> p[1]).toArray());
            }
        });
        save(chart, file, chart.getSeriesMap().isEmpty());
    }

    private static void save(Chart<?, ?> chart, Path file, boolean empty) throws IOException {
        if (empty) {
            // XChart refuses to draw a chart without data: say so on an otherwise empty chart.
            XYChart placeholder = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(chart.getTitle() + " (no data)").build();
            placeholder.addSeries("no data", new double[] {0}, new double[] {0});
            BitmapEncoder.saveBitmap(placeholder, file.toString(), BitmapEncoder.BitmapFormat.PNG);
            return;
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
