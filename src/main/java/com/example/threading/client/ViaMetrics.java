package com.example.threading.client;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import java.util.EnumMap;
import java.util.Map;

/**
 * The metrics of one {@code via} of {@code /fanout}: the fan-outs' response time, their failed calls, and the
 * fan-outs refused because they did not fit ({@code client.<client>.<via>.response-time|errors|rejected}).
 */
record ViaMetrics(Timer responseTime, Meter errors, Meter rejected) {

    /** One set per {@link Via}, registered in {@code metrics} under {@code client.<clientName>.<via>.*}. */
    static Map<Via, ViaMetrics> register(MetricRegistry metrics, String clientName) {
        Map<Via, ViaMetrics> byVia = new EnumMap<>(Via.class);
        for (Via via : Via.values()) {
            byVia.put(via, new ViaMetrics(metrics.timer(MetricRegistry.name("client", clientName, via.label(), "response-time")),
                    metrics.meter(MetricRegistry.name("client", clientName, via.label(), "errors")),
                    metrics.meter(MetricRegistry.name("client", clientName, via.label(), "rejected"))));
        }
        return byVia;
    }
}
