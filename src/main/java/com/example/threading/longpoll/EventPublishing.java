package com.example.threading.longpoll;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;

/**
 * {@code POST /events}: checks the bearer token (when one is configured), the media type and the size, parses
 * the body as JSON and hands it to the {@link EventSink}. The request then waits in async mode for the sink's
 * stage ({@link PublishRequest}): {@code 200} with the published event, or {@code 503} when the stream cannot
 * take it.
 *
 * <p>Thread-safety: immutable; called concurrently from Jetty worker threads.
 */
final class EventPublishing {

    private final EventSink sink;
    private final ObjectReader reader;
    private final JsonResponses json;
    private final long maxBytes;
    private final byte[] expectedAuthorization;
    private final long publishTimeoutMs;
    private final long retryAfterSeconds;
    private final PublishMetrics metrics;

    EventPublishing(EventSink sink, ObjectMapper mapper, JsonResponses json, long maxBytes, String publishToken,
                    long publishTimeoutMs, long retryAfterSeconds, PublishMetrics metrics) {
        this.sink = sink;
        this.reader = mapper.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        this.json = json;
        this.maxBytes = maxBytes;
        this.expectedAuthorization = publishToken == null || publishToken.isBlank()
                ? null
                : ("Bearer " + publishToken.trim()).getBytes(StandardCharsets.UTF_8);
        this.publishTimeoutMs = publishTimeoutMs;
        this.retryAfterSeconds = retryAfterSeconds;
        this.metrics = metrics;
    }

    /** True when a bearer token is required. */
    boolean requiresToken() {
        return expectedAuthorization != null;
    }

    /** Checks and reads one publish request on the calling (container) thread, then publishes it without waiting. */
    void publish(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (expectedAuthorization != null && !authorized(request.getHeader("Authorization"))) {
            metrics.refused.mark();
            discardBody(request, response);
            response.setHeader("WWW-Authenticate", "Bearer realm=\"events\"");
            json.writeError(response, 401, "a valid bearer token is required to publish");
            return;
        }
        String contentType = request.getContentType();
        if (contentType == null || !isJson(contentType)) {
            metrics.refused.mark();
            discardBody(request, response);
            json.writeError(response, 415, "the body must be JSON (Content-Type: application/json)");
            return;
        }
        long declaredLength = request.getContentLengthLong();
        if (declaredLength > maxBytes) {
            metrics.refused.mark();
            tooLarge(response);
            return;
        }
        byte[] body;
        try (InputStream in = request.getInputStream()) {
            body = in.readNBytes((int) maxBytes + 1);
        }
        if (body.length > maxBytes) {
            metrics.refused.mark();
            tooLarge(response);
            return;
        }
        JsonNode data;
        try {
            data = reader.readTree(body);
        } catch (IOException e) {
            data = null;
        }
        if (data == null || data.isMissingNode()) {
            metrics.refused.mark();
            json.writeError(response, 400, "the body is not one JSON value");
            return;
        }
        AsyncContext context = request.startAsync();
        context.setTimeout(publishTimeoutMs + PublishRequest.BACKSTOP_MARGIN_MS);
        PublishRequest exchange = new PublishRequest(context, json, metrics, retryAfterSeconds);
        context.addListener(exchange);
        exchange.publish(sink, data, publishTimeoutMs);
    }

    /**
     * Reads (and drops) a refused request's body so the connection can carry the next request; a body over the
     * limit is not read, and the connection is closed after the answer instead.
     */
    private void discardBody(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (request.getContentLengthLong() > maxBytes) {
            response.setHeader("Connection", "close");
            return;
        }
        try (InputStream in = request.getInputStream()) {
            if (in.readNBytes((int) maxBytes + 1).length > maxBytes) {
                response.setHeader("Connection", "close");
            }
        }
    }

    private void tooLarge(HttpServletResponse response) throws IOException {
        // Connection: close, so Jetty need not read (and we need not accept) the rest of an oversized body.
        response.setHeader("Connection", "close");
        json.writeError(response, 413, "the event body is limited to " + maxBytes + " bytes");
    }

    private boolean authorized(String authorization) {
        return authorization != null
                && MessageDigest.isEqual(authorization.trim().getBytes(StandardCharsets.UTF_8), expectedAuthorization);
    }

    private static boolean isJson(String contentType) {
        String mediaType = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        return mediaType.equals("application/json") || mediaType.endsWith("+json");
    }
}
