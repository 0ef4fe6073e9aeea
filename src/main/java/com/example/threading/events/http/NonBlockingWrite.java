package com.example.threading.events.http;

import com.codahale.metrics.Meter;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one complete answer to an async request without blocking the calling thread: {@link #send} only
 * registers a {@link WriteListener}, and Jetty runs {@link #onWritePossible} on one of its threads when the
 * socket can take the bytes. A client that reads slowly (or not at all) delays only its own answer.
 *
 * <p>The right to answer is taken in {@link #onWritePossible}, through {@code claim}, not when the answer is
 * queued: Jetty runs a request's write callback and its async-timeout callback one after the other, never at
 * once, so whichever runs first answers and the other one stands down. (Claiming at queue time would let a
 * timeout that fires while the write waits in Jetty's queue find the request taken but unanswered, and Jetty
 * would then answer 500 itself.) A poll's own deadline ({@link com.example.threading.events.hub.PollDeadlines}) is
 * swept on a thread of the hub, which
 * may run at the same moment as the write callback: the same claim decides between them.
 *
 * <p>The callbacks run in the request's context (its id, trace and caller), the OpenTelemetry {@code Context} the
 * caller of {@link #send} gives, made current around each callback on Jetty's thread. The calling thread's own context
 * is left as it is: a dispatcher offering thousands of answers switches no context per answer.
 *
 * <p>Thread-safety: {@link #send} may be called from any thread, once per request; Jetty serializes the
 * listener's callbacks for one request, so the mutable fields are only touched by one thread at a time.
 */
public final class NonBlockingWrite implements WriteListener {

    private static final Logger LOG = LoggerFactory.getLogger(NonBlockingWrite.class);

    private final AsyncContext context;
    private final ServletOutputStream out;
    private final JsonReply reply;
    private final BooleanSupplier claim;
    private final Meter writeFailures;
    private final Context requestContext;
    private boolean claimed;
    private boolean bodyWritten;

    private NonBlockingWrite(AsyncContext context, ServletOutputStream out, JsonReply reply, BooleanSupplier claim,
                             Meter writeFailures, Context requestContext) {
        this.context = context;
        this.out = out;
        this.reply = reply;
        this.claim = claim;
        this.writeFailures = writeFailures;
        this.requestContext = requestContext;
    }

    /**
     * Queues a JSON answer ({@code body} must not be empty); it is written only if {@code claim} still succeeds
     * when Jetty calls back, in {@code requestContext} (the request's). Returns false if the request was already
     * completed by someone else.
     */
    public static boolean send(AsyncContext context, JsonReply reply, BooleanSupplier claim, Meter writeFailures,
                               Context requestContext) {
        try {
            HttpServletResponse response = (HttpServletResponse) context.getResponse();
            ServletOutputStream out = response.getOutputStream();
            out.setWriteListener(new NonBlockingWrite(context, out, reply, claim, writeFailures, requestContext));
            return true;
        } catch (IllegalStateException | IOException completedMeanwhile) {
            return false; // e.g. its timeout answered 204 and completed it a moment ago
        }
    }

    /** Answers a status without body (204) on the calling container thread and completes the request. */
    public static void complete(AsyncContext context, int status) {
        HttpServletResponse response = (HttpServletResponse) context.getResponse();
        response.setStatus(status);
        response.setContentLength(0);
        context.complete();
    }

    @Override
    public void onWritePossible() throws IOException {
        try (Scope current = requestContext.makeCurrent()) {
            write();
        }
    }

    private void write() throws IOException {
        if (!claimed) {
            if (!claim.getAsBoolean()) {
                return; // its timeout or a failure answered it first; they complete the request
            }
            claimed = true;
        }
        if (!bodyWritten) {
            bodyWritten = true;
            LOG.debug("answering {} ({} bytes)", reply.status(), reply.body().length);
            HttpServletResponse response = (HttpServletResponse) context.getResponse();
            // Status and headers only now: had the timeout won, it would answer 204 without them.
            response.setStatus(reply.status());
            reply.headers().forEach(response::setHeader);
            response.setContentType(JsonResponses.JSON);
            response.setContentLength(reply.body().length);
            out.write(reply.body());
        }
        if (out.isReady()) {
            // isReady() after the write: the last byte has been handed to the network.
            context.complete();
        }
    }

    @Override
    public void onError(Throwable failure) {
        try (Scope current = requestContext.makeCurrent()) {
            if (claimed) {
                writeFailures.mark();
            }
            LOG.debug("answer not written: {}", failure.toString());
            context.complete();
        } catch (IllegalStateException alreadyCompleted) {
            // Jetty may have completed the failed request itself.
        }
    }
}
