package com.example.threading.events.sse;

import com.example.threading.events.history.FollowedCursors;
import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.history.TopicNews;
import com.example.threading.events.http.EventsJson;
import com.example.threading.events.http.JsonResponses;
import com.example.threading.events.hub.Answer;
import com.example.threading.events.hub.EventHub;
import com.example.threading.events.hub.Follower;
import com.example.threading.events.hub.ParkedPoll;
import com.google.common.util.concurrent.MoreExecutors;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Server-Sent Events stream: a standing poll of the hub on one response ({@link EventHub#follow}), which stays
 * subscribed across events. It is the poll's {@link Follower}: each event of its topics becomes one frame
 * ({@link SseFrames}) on the stream's {@link SseOutput}; news its cursors had when it was placed (a reconnect with
 * a Last-Event-ID) is written the same way, and the stream follows again from after it; each heartbeat period becomes a
 * comment line; the server stopping ({@link Answer.Closing}, spread like the long-polls' answers), a refusal, the
 * stream's lifetime or a slow reader end it with a final event of their own.
 *
 * <p>Thread-safety: everything the hub tells the stream — {@link #follow} (the dispatcher, in event order),
 * {@link #offer} (a request thread, the stopping thread), {@link #expire} (the deadline thread) — is queued, in the
 * order told, on one sequential executor over the container's threads ({@code inOrder}), so the cursors and the frames
 * are only touched by one task at a time and each task happens-before the next. The current poll is an atomic
 * reference, written by {@link #attach} before the hub places it: the one {@link AsyncListener} registered at the
 * start reports the request's failure and completion to it, and an ending stream withdraws it. {@link #end} and
 * {@link #attach} each write their side (ending, current) before reading the other's, so a poll attached while the
 * stream ends is withdrawn by one of them.
 */
final class SseStream implements Follower, AsyncListener {

    /** Everything a stream needs besides its request: the hub, its frames' JSON, its timing, its registry. */
    record Shared(EventHub hub, JsonResponses json, EventsJson<byte[]> eventJson, SseStreams streams, SseMetrics metrics,
                   long heartbeatMs) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(SseStream.class);
    private static final byte[] MISSED_DATA = "{\"missed\":true}".getBytes(StandardCharsets.UTF_8);

    private final Shared with;
    private final SseOutput output;
    private final long openedNanos;
    private final long expiresNanos;
    private final int jitterMs;
    /** Each topic's cursor and epoch, in the order asked; touched only by the tasks of {@code inOrder}. */
    private final FollowedCursors cursors;
    /** Runs what the hub tells the stream one task at a time, in order, on the container's threads. */
    private final Executor inOrder;
    private final AtomicReference<ParkedPoll> current = new AtomicReference<>();
    private final AtomicBoolean ending = new AtomicBoolean();
    /** Shed once, also while ending: a stream ending with a last event on a stalled socket must not wait for it. */
    private final AtomicBoolean shed = new AtomicBoolean();
    /** The stream's request context (id, trace, caller), current around each of its answers on whatever thread. */
    private final Context requestContext = Context.current();

    /**
     * A stream of {@code asked} (topics and cursors) written to {@code output}; {@code jitterMs} spreads its reconnects;
     * it ends, like at its lifetime, at {@code expiresNanos} (when its credentials end; far ahead when they do not).
     */
    SseStream(Shared with, SseOutput output, List<TopicCursor> asked, long openedNanos, long expiresNanos, int jitterMs) {
        this.with = with;
        this.output = output;
        this.openedNanos = openedNanos;
        this.expiresNanos = expiresNanos;
        this.jitterMs = jitterMs;
        this.cursors = new FollowedCursors(asked);
        this.inOrder = MoreExecutors.newSequentialExecutor(output::execute);
    }

    /** Opens the stream with its reconnect delay and places its first poll. */
    void start(long retryMs) {
        output.open();
        output.send(new SseOutput.Frame(SseFrames.retry(retryMs + jitterMs), 0));
        poll();
    }

    long openedNanos() {
        return openedNanos;
    }

    /** When its credentials end, on the same clock as {@link #openedNanos}. */
    long expiresNanos() {
        return expiresNanos;
    }

    /** Bytes of this stream not yet taken by its socket. */
    long unsentBytes() {
        return output.unsentBytes();
    }

    /** Whether its socket has taken nothing for {@code drainTimeoutNanos} while bytes wait. */
    boolean stalled(long nowNanos, long drainTimeoutNanos) {
        return output.stalled(nowNanos, drainTimeoutNanos);
    }

    @Override
    public void attach(ParkedPoll poll) {
        current.set(poll);
        if (ending.get()) {
            with.hub().withdraw(poll);
        }
    }

    /**
     * Answers on a container thread, as a long-poll's answer is written: the hub hands news to every stream from one
     * thread, and the frames and the write of every stream must not queue behind it.
     */
    @Override
    public void offer(Answer answer, BooleanSupplier claim) {
        inOrder.execute(requestContext.wrap(() -> answer(answer, claim)));
    }

    @Override
    public void follow(TopicNews news, Runnable handed) {
        inOrder.execute(requestContext.wrap(() -> followed(news, handed)));
    }

    /** The next events of one of the stream's topics: a frame each. */
    private void followed(TopicNews news, Runnable handed) {
        try {
            if (ending.get()) {
                return;
            }
            cursors.keepParked(current.get().cursors()); // a topic asked without a cursor reads after the id it was parked at
            SseOutput.Frame[] frames = frames(news);
            LOG.debug("stream followed: {} frames", frames.length);
            if (output.send(frames) == SseOutput.Sent.OVER_BUDGET) {
                shed("more than sse.maxUnsentBytes unsent");
            }
        } finally {
            handed.run(); // the batch's event-to-last-write ends once the frames are handed to the output
        }
    }

    private void answer(Answer answer, BooleanSupplier claim) {
        if (!claim.getAsBoolean()) {
            return; // its deadline, a failure or the stream's end took the poll first
        }
        ParkedPoll answered = current.get();
        if (answer instanceof Answer.News news) {
            SseOutput.Frame[] frames = frames(news.answer());
            LOG.debug("stream answered: {} frames", frames.length);
            SseOutput.Sent sent = output.send(frames);
            answered.completed(); // the poll is over; the stream follows again from after the news
            if (sent == SseOutput.Sent.OVER_BUDGET) {
                shed("more than sse.maxUnsentBytes unsent");
            } else if (sent == SseOutput.Sent.QUEUED) {
                poll();
            }
        } else if (answer instanceof Answer.Closing closing) {
            with.metrics().shutdownEnds.mark();
            end(new SseOutput.Frame(concat(SseFrames.retry(closing.retryAfterSeconds() * 1000L + jitterMs),
                    finalEvent("closing", "server is stopping, reconnect")), 0));
        } else if (answer instanceof Answer.Refused refused) {
            with.metrics().hubRefusals.mark();
            end(new SseOutput.Frame(finalEvent("refused", refused.reason()), 0));
        }
    }

    @Override
    public void expire() {
        inOrder.execute(requestContext.wrap(this::heartbeat));
    }

    /** A heartbeat period passed: a comment line; the poll stands. */
    private void heartbeat() {
        if (ending.get()) {
            return;
        }
        SseOutput.Sent sent = output.send(new SseOutput.Frame(SseFrames.heartbeat(), 0));
        if (sent == SseOutput.Sent.QUEUED) {
            with.metrics().heartbeats.mark();
        } else if (sent == SseOutput.Sent.OVER_BUDGET) {
            shed("more than sse.maxUnsentBytes unsent");
        }
    }

    @Override
    public void abandon() {
        try (Scope scope = requestContext.makeCurrent()) {
            LOG.debug("stream failed: closed");
            output.close();
            released();
        }
    }

    /** Ends the stream after its lifetime: {@code event: reconnect}; the client comes back with its Last-Event-ID. */
    void reconnect() {
        if (!ending.get()) {
            with.metrics().lifetimeEnds.mark();
            end(new SseOutput.Frame(finalEvent("reconnect", "stream lifetime reached, reconnect"), 0));
        }
    }

    /** Ends a stream whose client does not keep up, at once, without waiting for it (also one already ending); counted once. */
    void shed(String reason) {
        if (shed.compareAndSet(false, true)) {
            ending.set(true);
            with.metrics().shed.mark();
            withdrawCurrent();
            output.shed(new SseOutput.Frame(finalEvent("shed", reason), 0));
        }
    }

    @Override
    public void onComplete(AsyncEvent event) {
        released();
        ParkedPoll poll = current.get();
        if (poll != null) {
            poll.completed();
        }
    }

    @Override
    public void onError(AsyncEvent event) {
        ParkedPoll poll = current.get();
        if (poll != null) {
            poll.failed(event.getThrowable()); // a parked poll: the hub claims it and calls abandon
        }
        output.close();
        // Not only at onComplete: a request failed by an HTTP/2 reset from the client was seen to complete without it.
        released();
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        // No container timeout is set: the hub's deadlines (heartbeats) and the lifetime end a stream.
        ending.set(true);
        output.close();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // Started once.
    }

    private void poll() {
        if (ending.get()) {
            return;
        }
        with.hub().follow(this, cursors.asked(), with.heartbeatMs());
    }

    /** Ends the stream with {@code last} once what is queued before it is written. */
    private void end(SseOutput.Frame last) {
        if (ending.compareAndSet(false, true)) {
            withdrawCurrent();
            output.finish(last);
        }
    }

    /** The request ended or failed: no more polls, the waiting one withdrawn, the stream's place given back (once). */
    private void released() {
        ending.set(true);
        withdrawCurrent();
        with.streams().closed(this);
    }

    private void withdrawCurrent() {
        ParkedPoll poll = current.get();
        if (poll != null) {
            with.hub().withdraw(poll);
        }
    }

    /**
     * The frames of one answer, one per event, each with the stream's position after it as its {@code id:}; when events
     * before them are lost (or the cursor was of another history), first an {@code event: missed} at the position before
     * them. Advances the cursors.
     */
    private SseOutput.Frame[] frames(Object answer) {
        FollowedCursors.Read read = cursors.read(answer);
        List<SseOutput.Frame> frames = new ArrayList<>(read.events().size() + 1);
        if (read.missedAt() != null) {
            frames.add(new SseOutput.Frame(SseFrames.event(read.missedAt(), "missed", MISSED_DATA), 0));
        }
        List<byte[]> data = with.eventJson().of(read.events());
        for (int i = 0; i < data.size(); i++) {
            frames.add(new SseOutput.Frame(SseFrames.event(read.positions().get(i), data.get(i)), 1));
        }
        return frames.toArray(SseOutput.Frame[]::new);
    }

    private byte[] finalEvent(String type, String reason) {
        return SseFrames.event(null, type, with.json().bytes(Map.of("reason", reason)));
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = new byte[first.length + second.length];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
