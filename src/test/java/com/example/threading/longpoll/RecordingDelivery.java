package com.example.threading.longpoll;

import com.codahale.metrics.Meter;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * A poll's transport for unit tests of the hub, without a servlet container: it records what the hub gives it as the
 * long-poll servlet would put it on HTTP ({@link AsyncDelivery.Wire}: status, headers, body) and every completion, and
 * lets the test play the transport: {@link #writePossible()} runs the pending offer (claiming it as the real write
 * does), {@link #timeout()}, {@link #fail} and {@link #complete()} report to the attached poll. With
 * {@code writeAtOnce} an offer is written inside {@link #offer}, as if the client always took bytes.
 *
 * <p>Thread-safety: a test may play several callbacks of one poll from different threads at once (Jetty runs them one
 * at a time, so this is harsher than the real thing); all recorded state is in atomic or concurrent holders. Like
 * Jetty, a second completion is refused ({@link IllegalStateException} from {@link #complete()}) and counted.
 */
final class RecordingDelivery implements Delivery {

    private static final AsyncDelivery.Wire WIRE = new AsyncDelivery.Wire(new JsonResponses(new ObjectMapper()), 1, new Meter());

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

    RecordingDelivery(boolean writeAtOnce) {
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
    boolean writePossible() {
        Offer offer = pending.get();
        if (offer == null) {
            return false;
        }
        if (!claimed) {
            if (!offer.claim().getAsBoolean()) {
                return true; // someone else answered; they complete the poll
            }
            claimed = true;
            status.set(WIRE.status(offer.answer()));
            headers.putAll(WIRE.headers(offer.answer()));
            body.set(WIRE.body(offer.answer()));
        }
        if (ready) {
            completeQuietly();
        }
        return true;
    }

    /** Whether the client takes bytes now; true unless a test plays a slow client. */
    void ready(boolean takesBytes) {
        ready = takesBytes;
    }

    /** Whether an answer is offered and waits for {@link #writePossible()}. */
    boolean offered() {
        return pending.get() != null;
    }

    /** Plays the transport's own timeout. */
    void timeout() {
        poll.get().timedOut();
    }

    /** Plays a failed request (client reset, connection failure). */
    void fail(Throwable failure) {
        poll.get().failed(failure);
    }

    /** Plays the request's completion (as Jetty does when it completes a failed request itself); a second one throws. */
    void complete() {
        if (completions.incrementAndGet() > 1) {
            throw new IllegalStateException("already completed");
        }
        ParkedPoll attached = poll.get();
        if (attached != null) {
            attached.completed();
        }
    }

    int completions() {
        return completions.get();
    }

    /** The status written, 0 before any. */
    int status() {
        return status.get();
    }

    String header(String name) {
        return headers.get(name);
    }

    /** The body written, as UTF-8. */
    String body() {
        return new String(body.get(), StandardCharsets.UTF_8);
    }

    private void completeQuietly() {
        try {
            complete();
        } catch (IllegalStateException alreadyCompleted) {
            // Counted; the transport ignores it the same way.
        }
    }
}
