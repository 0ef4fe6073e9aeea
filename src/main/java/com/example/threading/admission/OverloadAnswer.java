package com.example.threading.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.MimeTypes;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The answer to a refused request: {@code 503}, {@code Retry-After}, {@code Content-Type: application/json} and the
 * service's error body {@code {"code":503,"message":"…"}}, written with Jetty's non-blocking core API (no servlet,
 * no Jersey: the request never reached them). The bodies are serialized once, at start-up.
 */
final class OverloadAnswer {

    private final byte[] queueFullBody;
    private final byte[] queueTimeoutBody;
    private final byte[] overLimitBody;
    private final long retryAfterSeconds;

    /** Answers carrying {@code limits}' {@code Retry-After}; bodies serialized with {@code json}. */
    OverloadAnswer(ObjectMapper json, AdmissionLimits limits) {
        this.retryAfterSeconds = limits.retryAfterSeconds();
        String retry = "; retry after " + retryAfterSeconds + " s";
        this.queueFullBody = body(json, "server busy: " + limits.maxRequests() + " requests in flight and "
                + limits.maxQueued() + " waiting" + retry);
        this.queueTimeoutBody = body(json, "server busy: no place free within "
                + limits.maxQueueTime().toMillis() + " ms" + retry);
        this.overLimitBody = body(json, "server busy: adaptive concurrency limit reached" + retry);
    }

    /** Writes the answer to a request refused because the queue was full. */
    void writeQueueFull(Response response, Callback callback) {
        write(response, callback, queueFullBody);
    }

    /** Writes the answer to a request refused after waiting the longest time allowed. */
    void writeQueueTimeout(Response response, Callback callback) {
        write(response, callback, queueTimeoutBody);
    }

    /** Writes the answer to a request over the adaptive limit. */
    void writeOverLimit(Response response, Callback callback) {
        write(response, callback, overLimitBody);
    }

    /** The body of the queue-full answer, for tests. */
    byte[] queueFullBody() {
        return queueFullBody.clone();
    }

    private void write(Response response, Callback callback, byte[] body) {
        if (response.isCommitted()) {
            callback.failed(new IllegalStateException("response already committed, cannot answer 503"));
            return;
        }
        response.setStatus(HttpStatus.SERVICE_UNAVAILABLE_503);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, MimeTypes.Type.APPLICATION_JSON.asString());
        response.getHeaders().put(HttpHeader.RETRY_AFTER, retryAfterSeconds);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    private static byte[] body(ObjectMapper json, String message) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", HttpStatus.SERVICE_UNAVAILABLE_503);
        error.put("message", message);
        try {
            return json.writeValueAsBytes(error);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize the 503 body", e);
        }
    }
}
