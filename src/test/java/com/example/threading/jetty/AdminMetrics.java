package com.example.threading.jetty;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the connector-strategy gauges from the admin port's {@code /metrics} (JSON) and {@code /prometheus} (text). */
final class AdminMetrics {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client;
    private final int adminPort;

    AdminMetrics(HttpClient client, int adminPort) {
        this.client = client;
        this.adminPort = adminPort;
    }

    /** The value of gauge {@code jetty.connector.<connector>.<suffix>} on /metrics; fails if it is missing. */
    long gauge(String connector, String suffix) {
        String name = ExecutionStrategies.METRIC_PREFIX + "." + connector + "." + suffix;
        JsonNode value = json().path("gauges").path(name).path("value");
        if (!value.isNumber()) {
            throw new AssertionError("no numeric gauge " + name + " on /metrics");
        }
        return value.asLong();
    }

    /** The sample value of {@code name} in the Prometheus text exposition, if present. */
    OptionalDouble prometheus(String name) {
        Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(name) + " (\\S+)$").matcher(get("/prometheus"));
        return matcher.find() ? OptionalDouble.of(Double.parseDouble(matcher.group(1))) : OptionalDouble.empty();
    }

    private JsonNode json() {
        try {
            return JSON.readTree(get("/metrics"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String get(String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + path))
                .timeout(Duration.ofSeconds(10)).build();
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new AssertionError(path + " answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
