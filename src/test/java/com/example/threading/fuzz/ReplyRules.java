package com.example.threading.fuzz;

import com.example.threading.testing.RawHttpConnection.Reply;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What every answer of the service must be, whatever was asked: never a 5xx but a 503 from a documented limit (with
 * {@code Retry-After}), a 505 for an HTTP version the server does not speak, or the 501 of {@code /work/virtual} on
 * a JDK without virtual threads; every 401 with its {@code WWW-Authenticate} challenge; every 4xx and 5xx the one
 * JSON error body {@code {"code":N,"message":"…"}} with {@code Content-Type: application/json} and {@code code}
 * equal to the status (a batch publish's {@code 503} may add the events the stream took, {@code "events":[…]}); no
 * {@code Server} header. {@code /healthcheck}'s 500 (a check is unhealthy) is documented and carries the checks, not
 * an error body.
 *
 * <p>Thread-safety: stateless; called from the fuzz's sending threads.
 */
final class ReplyRules {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ReplyRules() {
    }

    /** The rules {@code reply} breaks (empty when none); {@code head} for a HEAD request, whose answer has no body. */
    static List<String> violations(String endpoint, boolean head, Reply reply) {
        List<String> broken = new ArrayList<>();
        int status = reply.status();
        if (status < 100) {
            broken.add("no HTTP answer");
            return broken;
        }
        if (reply.header("Server") != null) {
            broken.add("Server header " + reply.header("Server"));
        }
        boolean healthReport = endpoint.contains("/healthcheck") && status == 500;
        boolean virtualUnavailable = endpoint.contains("/work/virtual") && status == 501 && Runtime.version().feature() < 21;
        // 505: the client asked for an HTTP version the server does not speak, which HTTP answers with a 5xx.
        if (status >= 500 && status != 503 && status != 505 && !healthReport && !virtualUnavailable) {
            broken.add("a 5xx that is not a documented limit");
        }
        if (status == 503 && reply.header("Retry-After") == null) {
            broken.add("503 without Retry-After");
        }
        if (status == 401 && reply.header("WWW-Authenticate") == null) {
            broken.add("401 without WWW-Authenticate");
        }
        if (status >= 400 && !healthReport) {
            String type = reply.header("Content-Type");
            if (type == null || !type.startsWith("application/json")) {
                broken.add("error Content-Type " + type);
            }
            if (!head) {
                broken.addAll(errorBodyViolations(status, reply.body(), endpoint.endsWith(" /events/batch") && status == 503));
            }
        }
        return broken;
    }

    /** {@code partlyPublished}: a batch's 503, which may also list the events the stream took ({@code "events":[…]}). */
    private static List<String> errorBodyViolations(int status, String body, boolean partlyPublished) {
        try {
            JsonNode json = JSON.readTree(body);
            List<String> broken = new ArrayList<>();
            int fields = partlyPublished && json != null && json.path("events").isArray() ? 3 : 2;
            if (json == null || !json.isObject() || json.size() != fields || json.path("code").asInt() != status
                    || !json.path("message").isTextual()) {
                broken.add("error body is not {\"code\":" + status + ",\"message\":…}: " + body);
            }
            if (body.contains("Exception") || body.contains("\tat ")) {
                broken.add("error body shows an exception: " + body);
            }
            return broken;
        } catch (IOException e) {
            return List.of("error body is not JSON: " + body);
        }
    }
}
