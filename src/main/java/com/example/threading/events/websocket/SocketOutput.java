package com.example.threading.events.websocket;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.common.WebSocketSession;
import org.eclipse.jetty.websocket.core.CoreSession;
import org.eclipse.jetty.websocket.core.Frame;
import org.eclipse.jetty.websocket.core.OpCode;

/**
 * The write side of one socket: every message is handed to Jetty as a text frame with a callback (its core session's
 * {@code sendFrame}), which queues the frame and returns at once; Jetty writes it when the network takes it and
 * completes the callback. No thread waits for a client. What is handed over and not yet written counts as unsent, in
 * bytes, and a message that would take a socket beyond its budget is not sent: the socket is to be shed. So a slow
 * reader holds at most its budget (plus one message, when nothing was unsent), however fast events come, and never the
 * writer of another socket.
 *
 * <p>Events are {@linkplain #sendBatched batched}: Jetty copies the frame into the connection's output buffer and
 * writes nothing until {@link #flush}, a frame sent with {@link #send}, or a full buffer. The socket flushes after the
 * tasks queued for it, so the events that piled up for one socket while it waited its turn leave in one write instead
 * of one write each: the busier the server, the fewer writes per event. A batched message counts as written once it is
 * in that buffer (a few KiB at most); what waits behind a write the network has not taken counts as unsent, as before.
 *
 * <p>Thread-safety: any thread may call any method. Jetty's session accepts sends from several threads and writes
 * whole messages in the order they were handed over; the unsent count and the time of the last progress are atomic,
 * added to before a send and taken from in its callback (a Jetty thread, or the sending thread when the write
 * completes at once), so a check against the budget may see a callback's progress a moment late, never lost.
 */
final class SocketOutput {

    /** Outcome of {@link #send}. */
    enum Sent {
        /** Handed to Jetty. */
        QUEUED,
        /** Not sent: more than the budget is unsent; the socket is to be shed. */
        OVER_BUDGET
    }

    private final Session session;
    /** Jetty's session under the API one: the only way to send a frame batched. */
    private final CoreSession frames;
    private final long maxUnsentBytes;
    private final LongSupplier nanoClock;
    private final AtomicLong unsent = new AtomicLong();
    /** Last time the network took a message, or the socket had nothing unsent. */
    private final AtomicLong progressNanos;

    SocketOutput(Session session, long maxUnsentBytes, LongSupplier nanoClock) {
        this.session = session;
        this.frames = ((WebSocketSession) session).getCoreSession();
        this.maxUnsentBytes = maxUnsentBytes;
        this.nanoClock = nanoClock;
        this.progressNanos = new AtomicLong(nanoClock.getAsLong());
    }

    /** Hands {@code text} to Jetty to be written now, after what is batched, unless over the budget; never blocks. */
    Sent send(String text) {
        return send(text.getBytes(StandardCharsets.UTF_8), false);
    }

    /**
     * Hands a message, its text in UTF-8 ({@code utf8}, not changed afterwards), to Jetty to be written by the next
     * {@link #flush} (or sooner) unless over the budget.
     */
    Sent sendBatched(byte[] utf8) {
        return send(utf8, true);
    }

    /** Writes what is batched (once the network takes what Jetty is writing already, if any); never blocks. */
    void flush() {
        frames.flush(Callback.NOOP);
    }

    private Sent send(byte[] utf8, boolean batched) {
        long size = utf8.length;
        long before = unsent.getAndAdd(size);
        if (before > 0 && before + size > maxUnsentBytes) {
            unsent.addAndGet(-size);
            return Sent.OVER_BUDGET;
        }
        if (before == 0) {
            progressNanos.set(nanoClock.getAsLong()); // the stall clock starts with the first unsent byte
        }
        hand(utf8, batched);
        return Sent.QUEUED;
    }

    /** Hands a message counted as unsent already to Jetty; its callback takes it off the count. */
    private void hand(byte[] utf8, boolean batched) {
        long size = utf8.length;
        Callback done = Callback.from(() -> written(size), failure -> written(size));
        frames.sendFrame(new Frame(OpCode.TEXT).setPayload(utf8), done, batched);
    }

    /** Hands {@code text} to Jetty whatever the budget: a socket's last message, sent before it closes. */
    void sendLast(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        unsent.addAndGet(utf8.length);
        hand(utf8, false);
    }

    /** A ping, which the client answers with a pong: an idle socket stays visibly alive (and a dead one is found). */
    void ping() {
        frames.sendFrame(new Frame(OpCode.PING), Callback.NOOP, false);
    }

    /** Closes the socket with {@code code} once what is queued is written (the close frame goes after it). */
    void close(int code, String reason) {
        session.close(code, reason, org.eclipse.jetty.websocket.api.Callback.NOOP);
    }

    /** Drops the connection at once, without a close frame: for a socket whose network takes nothing. */
    void disconnect() {
        session.disconnect();
    }

    /** Bytes handed to Jetty and not yet written. */
    long unsentBytes() {
        return unsent.get();
    }

    /** Whether the network has taken nothing for {@code drainTimeoutNanos} while messages wait. */
    boolean stalled(long nowNanos, long drainTimeoutNanos) {
        return unsent.get() > 0 && nowNanos - progressNanos.get() > drainTimeoutNanos;
    }

    private void written(long size) {
        progressNanos.set(nanoClock.getAsLong());
        unsent.addAndGet(-size);
    }
}
