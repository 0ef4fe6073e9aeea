package com.example.threading.health;

import com.codahale.metrics.health.HealthCheck;
import com.codahale.metrics.health.HealthCheckRegistry;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jersey.errors.ErrorMessage;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs the named health checks that are registered and answers {@code 200 {"ready":true,"checks":[…]}}, or
 * {@code 503 {"code":503,"message":"not ready: <names>"}} with {@code Retry-After: 1}. Only the names of failing
 * checks are shown (their messages can name internal hosts), and nothing is cached.
 */
final class ReadinessServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    /** Retry-After of the 503, in seconds: a readiness probe is repeated by its caller's own interval anyway. */
    private static final String RETRY_AFTER_SECONDS = "1";

    private final transient HealthCheckRegistry registry;
    private final List<String> checks;
    private final transient ObjectMapper json;

    ReadinessServlet(HealthCheckRegistry registry, List<String> checks, ObjectMapper json) {
        this.registry = registry;
        this.checks = List.copyOf(checks);
        this.json = json;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Set<String> registered = registry.getNames();
        List<String> ran = new ArrayList<>();
        List<String> failing = new ArrayList<>();
        for (String name : checks) {
            if (registered.contains(name)) {
                ran.add(name);
                HealthCheck.Result result = registry.runHealthCheck(name);
                if (!result.isHealthy()) {
                    failing.add(name);
                }
            }
        }
        response.setContentType("application/json");
        response.setHeader("Cache-Control", "no-store");
        Object body;
        if (failing.isEmpty()) {
            response.setStatus(HttpServletResponse.SC_OK);
            Map<String, Object> ready = new LinkedHashMap<>();
            ready.put("ready", true);
            ready.put("checks", ran);
            body = ready;
        } else {
            response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
            response.setHeader("Retry-After", RETRY_AFTER_SECONDS);
            body = new ErrorMessage(HttpServletResponse.SC_SERVICE_UNAVAILABLE, "not ready: " + String.join(", ", failing));
        }
        json.writeValue(response.getOutputStream(), body);
    }
}
