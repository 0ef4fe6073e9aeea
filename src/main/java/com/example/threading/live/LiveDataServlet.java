package com.example.threading.live;

import com.codahale.metrics.Counting;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Metric;
import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /live/data}: the numbers the page draws, read now, as {@code {"time":<epoch ms>,"values":[…]}} with one
 * value per line of the layout, in its order: a gauge's number, a counter's, meter's or timer's count, or
 * {@code null} when the metric is not registered (or its gauge is not a finite number). Rates are left to the page,
 * which divides the increase of a count by the time between two reads: this servlet keeps no state.
 *
 * <p>Cost: one lookup per line in the registry's own map (no copy, no walk of the registry, no sorting) and one read
 * of each metric; docs/live.md measures the answer's size and time.
 */
final class LiveDataServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    private final transient MetricRegistry registry;
    private final List<String> metrics;
    private final transient JsonFactory json;

    LiveDataServlet(MetricRegistry registry, List<LiveChart> charts, JsonFactory json) {
        this.registry = registry;
        this.metrics = charts.stream().flatMap(chart -> chart.series().stream()).map(LiveSeries::metric).toList();
        this.json = json;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("application/json");
        response.setHeader("Cache-Control", "no-store");
        Map<String, Metric> registered = registry.getMetrics(); // an unmodifiable view, not a copy
        try (JsonGenerator out = json.createGenerator(response.getOutputStream())) {
            out.writeStartObject();
            out.writeNumberField("time", System.currentTimeMillis());
            out.writeArrayFieldStart("values");
            for (String name : metrics) {
                write(out, registered.get(name));
            }
            out.writeEndArray();
            out.writeEndObject();
        }
    }

    private static void write(JsonGenerator out, Metric metric) throws IOException {
        if (metric instanceof Counting counting) {
            out.writeNumber(counting.getCount());
        } else if (metric instanceof Gauge<?> gauge && gauge.getValue() instanceof Number number) {
            writeNumber(out, number);
        } else {
            out.writeNull();
        }
    }

    private static void writeNumber(JsonGenerator out, Number number) throws IOException {
        if (number instanceof Double || number instanceof Float) {
            double value = number.doubleValue();
            if (Double.isFinite(value)) {
                out.writeNumber(value);
            } else {
                out.writeNull();
            }
        } else {
            out.writeNumber(number.longValue());
        }
    }
}
