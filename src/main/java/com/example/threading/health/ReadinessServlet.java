package com.example.threading.health;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jersey.errors.ErrorMessage;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Answers {@code 200 {"ready":true,"checks":[…]}} while the {@link Readiness} verdict passes, or
 * {@code 503 {"code":503,"message":"not ready: <names>"}} with {@code Retry-After: 1}. Only the names of failing
 * checks are shown (their messages can name internal hosts).
 */
final class ReadinessServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    /** Retry-After of the 503, in seconds: a readiness probe is repeated by its caller's own interval anyway. */
    private static final String RETRY_AFTER_SECONDS = "1";

    private final transient Readiness readiness;
    private final transient ObjectMapper json;

    ReadinessServlet(Readiness readiness, ObjectMapper json) {
        this.readiness = readiness;
        this.json = json;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Readiness.Verdict verdict = readiness.current();
        response.setContentType("application/json");
        response.setHeader("Cache-Control", "no-store");
        Object body;
        if (verdict.ready()) {
            response.setStatus(HttpServletResponse.SC_OK);
            Map<String, Object> ready = new LinkedHashMap<>();
            ready.put("ready", true);
            ready.put("checks", verdict.ran());
            body = ready;
        } else {
            response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
            response.setHeader("Retry-After", RETRY_AFTER_SECONDS);
            body = new ErrorMessage(HttpServletResponse.SC_SERVICE_UNAVAILABLE,
                    "not ready: " + String.join(", ", verdict.failing()));
        }
        json.writeValue(response.getOutputStream(), body);
    }
}
