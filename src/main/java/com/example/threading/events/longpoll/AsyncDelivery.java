package com.example.threading.events.longpoll;

import com.codahale.metrics.Meter;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import com.example.threading.events.http.JsonReply;
import com.example.threading.events.http.JsonResponses;
import com.example.threading.events.http.NonBlockingWrite;
import com.example.threading.events.hub.Answer;
import com.example.threading.events.hub.Delivery;
import com.example.threading.events.hub.ParkedPoll;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The long-poll servlet's {@link Delivery}: a started {@code AsyncContext}, answered with a non-blocking write
 * ({@link NonBlockingWrite}). It turns the hub's answers into HTTP: news {@code 200} with its JSON, a refusal
 * {@code 503} with {@code Retry-After}, the server stopping {@code 503} with {@code Connection: close} and the spread's
 * {@code Retry-After}, an expired poll {@code 204}.
 *
 * <p>Each answer is given in the poll's own request context (its id, trace and caller), kept from the request thread
 * that parked it: the hub answers a batch of thousands of polls from one thread, and every log line of each answer
 * must say whose it is, never the batch's or another poll's.
 *
 * <p>Called as {@link Delivery} says; the async context may be completed from any thread, and a completion that
 * Jetty already made (a failed request) is ignored here.
 */
final class AsyncDelivery implements Delivery {

    private static final Logger LOG = LoggerFactory.getLogger(AsyncDelivery.class);

    private final AsyncContext context;
    private final Wire wire;
    private final Context requestContext = Context.current();

    /**
     * Delivers to {@code context}, started, without a container timeout (the hub keeps the deadline); made on the
     * request's thread, whose current OpenTelemetry context is the poll's.
     */
    AsyncDelivery(AsyncContext context, Wire wire) {
        this.context = context;
        this.wire = wire;
    }

    @Override
    public void attach(ParkedPoll poll) {
        context.addListener(new AsyncListener() {
            @Override
            public void onTimeout(AsyncEvent event) {
                poll.timedOut(); // only where a container timeout is set; the hub's deadline is the usual one
            }

            @Override
            public void onError(AsyncEvent event) {
                poll.failed(event.getThrowable());
            }

            @Override
            public void onComplete(AsyncEvent event) {
                poll.completed();
            }

            @Override
            public void onStartAsync(AsyncEvent event) {
                // Not re-dispatched: a poll starts async once.
            }
        });
    }

    @Override
    public void offer(Answer answer, BooleanSupplier claim) {
        NonBlockingWrite.send(context, wire.reply(answer), claim, wire.writeFailures, requestContext);
    }

    @Override
    public void expire() {
        try (Scope current = requestContext.makeCurrent()) {
            LOG.debug("poll expired: 204");
            NonBlockingWrite.complete(context, 204);
        } catch (IllegalStateException completedMeanwhile) {
            // Jetty completed the request itself (it failed without telling the listener first): nothing to answer.
            LOG.debug("expired poll was already complete", completedMeanwhile);
        }
    }

    @Override
    public void abandon() {
        try (Scope current = requestContext.makeCurrent()) {
            LOG.debug("poll failed: completed without an answer");
            context.complete();
        } catch (IllegalStateException alreadyCompleted) {
            // Jetty completed it itself.
        }
    }

    /**
     * How the hub's answers look on HTTP: status, headers and JSON body of each. Shared by every poll of a servlet.
     */
    static final class Wire {
        private final JsonResponses json;
        private final Map<String, String> refusedHeaders;
        private final byte[] closingBody;
        private final Meter writeFailures;

        /** Refusals say {@code Retry-After: retryAfterSeconds}; answers that cannot be written count in {@code writeFailures}. */
        Wire(JsonResponses json, long retryAfterSeconds, Meter writeFailures) {
            this.json = json;
            this.refusedHeaders = Map.of("Retry-After", Long.toString(retryAfterSeconds));
            this.closingBody = json.error(503, Answer.Closing.MESSAGE); // once, not per poll of a 20,000-poll stop
            this.writeFailures = writeFailures;
        }

        /** Writes {@code answer} at once on the calling (container) thread: the blocking twin's way. */
        void write(HttpServletResponse response, Answer answer) throws IOException {
            headers(answer).forEach(response::setHeader);
            json.write(response, status(answer), body(answer));
        }

        /** {@code answer} as HTTP. */
        JsonReply reply(Answer answer) {
            return new JsonReply(status(answer), headers(answer), body(answer));
        }

        private int status(Answer answer) {
            return answer instanceof Answer.News ? 200 : 503;
        }

        private Map<String, String> headers(Answer answer) {
            if (answer instanceof Answer.Closing closing) {
                return Map.of("Retry-After", Integer.toString(closing.retryAfterSeconds()), "Connection", "close");
            }
            return answer instanceof Answer.Refused ? refusedHeaders : Map.of();
        }

        private byte[] body(Answer answer) {
            if (answer instanceof Answer.News news) {
                return news.json();
            }
            if (answer instanceof Answer.Refused refused) {
                return json.error(503, refused.reason());
            }
            return closingBody;
        }
    }
}
