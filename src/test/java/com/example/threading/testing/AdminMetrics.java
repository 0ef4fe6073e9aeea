package com.example.threading.testing;

import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a running service's metrics and health the way an operator would: over HTTP from its admin port
 * ({@code /metrics} JSON, {@code /prometheus} text, {@code /healthcheck}). Each call reads afresh.
 * <pre>{@code
 * AdminMetrics admin = new AdminMetrics(HTTP, APP.getAdminPort());
 * long rejected = admin.count("work.bounded.rejected");
 * assertThat(admin.gauge("events.parked")).isZero();
 * }</pre>
 * (A test that has the application in-process may also read {@code APP.getEnvironment().metrics()} directly.)
 *
 * <p>Thread-safety: immutable; safe to use from any thread (the client is thread-safe).
 */
public final class AdminMetrics {

    private static final List<String> COUNTED = List.of("counters", "meters", "timers", "histograms");

    private final LoopbackHttp http;
    private final int adminPort;

    /** Reads the admin connector on {@code adminPort} with {@code http}. */
    public AdminMetrics(LoopbackHttp http, int adminPort) {
        this.http = http;
        this.adminPort = adminPort;
    }

    /** The whole {@code /metrics} document ({@code gauges}, {@code counters}, {@code meters}, {@code timers}, ...). */
    public JsonNode metrics() {
        return ok("/metrics").json();
    }

    /** The value of the numeric gauge {@code name}; {@link AssertionError} if there is none. */
    public long gauge(String name) {
        JsonNode value = metrics().path("gauges").path(name).path("value");
        if (!value.isNumber()) {
            throw new AssertionError("no numeric gauge " + name + " on /metrics");
        }
        return value.asLong();
    }

    /** The count of the counter, meter, timer or histogram {@code name}; {@link AssertionError} if there is none. */
    public long count(String name) {
        JsonNode all = metrics();
        for (String type : COUNTED) {
            JsonNode count = all.path(type).path(name).path("count");
            if (count.isNumber()) {
                return count.asLong();
            }
        }
        throw new AssertionError("no counter, meter, timer or histogram " + name + " on /metrics");
    }

    /** The Prometheus text exposition of {@code /prometheus}. */
    public String prometheusText() {
        return ok("/prometheus").body();
    }

    /**
     * The value of the sample line {@code series value} in {@code /prometheus}, if present; {@code series} is a name, or a
     * name with its labels as the client writes them (sorted by name): {@code executor_threads{pool="work-cached"}}.
     */
    public OptionalDouble prometheus(String name) {
        Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(name) + " (\\S+)$").matcher(prometheusText());
        return matcher.find() ? OptionalDouble.of(Double.parseDouble(matcher.group(1))) : OptionalDouble.empty();
    }

    /** The {@code /healthcheck} answer: 200 when every check is healthy, 500 otherwise; one JSON field per check. */
    public Answer healthcheck() {
        return http.get(LoopbackHttp.url(adminPort, "/healthcheck"));
    }

    /** Whether the health check {@code name} is healthy right now; {@link AssertionError} if there is no such check. */
    public boolean healthy(String name) {
        JsonNode check = healthcheck().json().path(name).path("healthy");
        if (!check.isBoolean()) {
            throw new AssertionError("no health check " + name + " on /healthcheck");
        }
        return check.asBoolean();
    }

    private Answer ok(String path) {
        Answer answer = http.get(LoopbackHttp.url(adminPort, path));
        if (answer.status() != 200) {
            throw new AssertionError(path + " answered " + answer.status() + ": " + answer.body());
        }
        return answer;
    }
}
