package com.example.threading.minimal;

import io.dropwizard.core.setup.Environment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's QoSHandler in front of the application: at most {@code maxRequests} requests run at once, up to
 * {@code maxQueued} more wait (suspended: no thread held) for at most {@code maxQueueTime}, and every other request
 * is answered 503 with Retry-After at once. A place comes back when its request completes (its answer written).
 * Left to itself QoSHandler would let a suspended request wait forever and would answer without Retry-After.
 *
 * <p>Thread-safety: configured on the start-up thread before the server starts; QoSHandler's own state is
 * thread-safe, and the answer's bytes are only read (each refusal wraps them in a buffer of its own).
 */
public final class MinimalAdmission extends QoSHandler {
    private static final byte[] BUSY = "{\"code\":503,\"message\":\"server busy, retry later\"}"
            .getBytes(StandardCharsets.UTF_8);

    public MinimalAdmission(int maxRequests, int maxQueued, Duration maxQueueTime) {
        setMaxRequestCount(maxRequests);
        setMaxSuspendedRequestCount(maxQueued);
        setMaxSuspend(maxQueueTime);
    }

    /** Puts the handler in front of every filter and servlet of the application port; the admin port stays apart. */
    public void register(Environment environment) {
        environment.getApplicationContext().insertHandler(this);
    }

    /** {@code maxQueued} requests already wait. */
    @Override
    protected void reject(Request request, Response response, Callback callback, int status) {
        busy(response, callback);
    }

    /** The request waited {@code maxQueueTime} without a place. */
    @Override
    protected void expireSuspended(Request request, Response response, Callback callback) {
        busy(response, callback);
    }

    private static void busy(Response response, Callback callback) {
        response.setStatus(HttpStatus.SERVICE_UNAVAILABLE_503);
        response.getHeaders().put(HttpHeader.RETRY_AFTER, 1);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.write(true, ByteBuffer.wrap(BUSY), callback);
    }
}
