package com.example.threading.events.hub;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * A poll's transport for unit tests of the hub, without a servlet container: it records what the hub gives it as the
 * long-poll transport puts it on HTTP (status, headers, body: {@link #WIRE}, the same mapping as the long-poll's own,
 * whose endpoint tests check it on the wire) and every completion, and
 * lets the test play the transport: {@link #writePossible()} runs the pending offer (claiming it as the real write
 * does), {@link #timeout()}, {@link #fail} and {@link #complete()} report to the attached poll. With
 * {@code writeAtOnce} an offer is written inside {@link #offer}, as if the client always took bytes.
 *
 * <p>Thread-safety: a test may play several callbacks of one poll from different threads at once (Jetty runs them one
 * at a time, so this is harsher than the real thing); all recorded state is in atomic or concurrent holders. Like
 * Jetty, a second completion is refused ({@link IllegalStateException} from {@link #complete()}) and counted.
 */
public final class RecordingDelivery implements Delivery {

    /** The long-poll's HTTP for each answer: news 200; refused 503 with Retry-After 1; stopping 503, its Retry-After, close. */
    private static final Wire WIRE = new Wire(new ObjectMapper());

    private final boolean writeAtOnce;
    private final AtomicReference<ParkedPoll> poll = new AtomicReference<>();
    private final AtomicReference<Offer> pending = new AtomicReference<>();
    private final AtomicInteger completions = new AtomicInteger();
    private final AtomicInteger status = new AtomicInteger();
    private final Map<String, String> headers = new ConcurrentHashMap<>();
    private final AtomicReference<byte[]> body = new AtomicReference<>(new byte[0]);
    private volatile boolean claimed;
    private volatile boolean ready = true;

    private record Offer(Answer answer, BooleanSupplier claim) {
    }

    public RecordingDelivery(boolean writeAtOnce) {
        this.writeAtOnce = writeAtOnce;
    }

    @Override
    public void attach(ParkedPoll attached) {
        if (!poll.compareAndSet(null, attached)) {
            throw new IllegalStateException("attached twice");
        }
    }

    @Override
    public void offer(Answer answer, BooleanSupplier claim) {
        if (!pending.compareAndSet(null, new Offer(answer, claim))) {
            throw new IllegalStateException("a second answer was offered");
        }
        if (writeAtOnce) {
            writePossible();
        }
    }

    @Override
    public void expire() {
        status.set(204);
        completeQuietly();
    }

    @Override
    public void abandon() {
        completeQuietly();
    }

    /** Plays "the client can take bytes": writes the pending offer if its claim succeeds; false if none is pending. */
    public boolean writePossible() {
        Offer offer = pending.get();
        if (offer == null) {
            return false;
        }
        if (!claimed) {
            if (!offer.claim().getAsBoolean()) {
                return true; // someone else answered; they complete the poll
            }
            claimed = true;
            Answer answer = offer.answer();
            status.set(answer instanceof Answer.News ? 200 : 503);
            headers.putAll(WIRE.headers(answer));
            body.set(WIRE.body(answer));
        }
        if (ready) {
            completeQuietly();
        }
        return true;
    }

    /** Whether the client takes bytes now; true unless a test plays a slow client. */
    public void ready(boolean takesBytes) {
        ready = takesBytes;
    }

    /** Whether an answer is offered and waits for {@link #writePossible()}. */
    public boolean offered() {
        return pending.get() != null;
    }

    /** Plays the transport's own timeout. */
    public void timeout() {
        poll.get().timedOut();
    }

    /** Plays a failed request (client reset, connection failure). */
    public void fail(Throwable failure) {
        poll.get().failed(failure);
    }

    /** Plays the request's completion (as Jetty does when it completes a failed request itself); a second one throws. */
    public void complete() {
        if (completions.incrementAndGet() > 1) {
            throw new IllegalStateException("already completed");
        }
        ParkedPoll attached = poll.get();
        if (attached != null) {
            attached.completed();
        }
    }

    public int completions() {
        return completions.get();
    }

    /** The status written, 0 before any. */
    public int status() {
        return status.get();
    }

    public String header(String name) {
        return headers.get(name);
    }

    /** The body written, as UTF-8. */
    public String body() {
        return new String(body.get(), StandardCharsets.UTF_8);
    }

    private void completeQuietly() {
        try {
            complete();
        } catch (IllegalStateException alreadyCompleted) {
            // Counted; the transport ignores it the same way.
        }
    }

    /** Headers and body of each answer as the long-poll writes them, with a {@code Retry-After} of 1 for refusals. */
    private record Wire(ObjectMapper mapper) {
        Map<String, String> headers(Answer answer) {
            if (answer instanceof Answer.Closing closing) {
                return Map.of("Retry-After", Integer.toString(closing.retryAfterSeconds()), "Connection", "close");
            }
            return answer instanceof Answer.Refused ? Map.of("Retry-After", "1") : Map.of();
        }

        byte[] body(Answer answer) {
            if (answer instanceof Answer.News news) {
                return news.json();
            }
            String message = answer instanceof Answer.Refused refused ? refused.reason() : Answer.Closing.MESSAGE;
            try {
                return mapper.writeValueAsBytes(Map.of("code", 503, "message", message));
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
