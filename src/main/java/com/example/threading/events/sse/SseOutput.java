package com.example.threading.events.sse;

import com.codahale.metrics.Meter;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.function.LongSupplier;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.util.Callback;

/**
 * The write side of one Server-Sent Events stream: a queue of frames written by a {@link WriteListener} whenever the
 * socket can take them, never by a thread that waits. {@link #send} queues and writes what the socket takes at once;
 * Jetty calls {@link #onWritePossible} for the rest. Bytes count as unsent from {@link #send} until a flush that
 * follows them has completed.
 *
 * <p>A stream that does not keep up is ended without waiting for its client ({@link #abort}). {@code
 * AsyncContext.complete()} would wait for the pending write, up to the connector's idle timeout, and so would Jetty
 * 12's {@code ServletChannel.abort(Throwable)} on HTTP/1.1 (it completes the request through the output, which waits
 * for the pending write). Over HTTP/1.1 the connection is the stream's alone: closing its {@code EndPoint}
 * ({@code ConnectionMetaData.getConnection().getEndPoint().close(Throwable)}) fails the pending write at once, and
 * Jetty completes the request. Over HTTP/2 the connection carries other streams and {@code ServletChannel.abort} waits
 * the same way: the stream alone is reset ({@code CANCEL_STREAM_ERROR}), found in the connection's session by the
 * request's id, which Jetty 12 takes from its HTTP/2 stream.
 *
 * <p>Thread-safety: any thread may call any method. The queue, the counts and the writes to the servlet output are
 * guarded by this object's monitor, so a write started by {@link #send} (the hub's dispatcher, a request thread, the
 * deadline thread) and one started by {@link #onWritePossible} (a Jetty thread) never overlap; a write in async mode
 * does not block, so the monitor is held only while bytes are handed over. The request is completed or aborted
 * outside the monitor (Jetty may call the listeners back on the calling thread).
 */
final class SseOutput implements WriteListener {

    /** Outcome of {@link #send}. */
    enum Sent {
        /** Queued (and written as far as the socket takes it). */
        QUEUED,
        /** The stream is ending or ended: not queued. */
        ENDED,
        /** More than the budget was still unsent: not queued; the stream is to be shed. */
        OVER_BUDGET
    }

    private final AsyncContext context;
    private final ServletOutputStream out;
    private final long maxUnsentBytes;
    private final LongSupplier nanoClock;
    private final Meter eventsWritten;
    @GuardedBy("this")
    private final ArrayDeque<Frame> queue = new ArrayDeque<>();
    @GuardedBy("this")
    private long queuedBytes;
    /** Bytes handed to the output since the last completed flush. */
    @GuardedBy("this")
    private long handedBytes;
    @GuardedBy("this")
    private boolean flushing;
    /** Last time the socket took bytes or had nothing pending. */
    @GuardedBy("this")
    private long progressNanos;
    /** Complete once everything queued is written. */
    @GuardedBy("this")
    private boolean finishing;
    @GuardedBy("this")
    private boolean ended;

    /** One frame and how many events it carries (0: a comment, {@code retry:} or a stream's final event). */
    record Frame(byte[] bytes, int events) {
    }

    SseOutput(AsyncContext context, ServletOutputStream out, long maxUnsentBytes, LongSupplier nanoClock, Meter eventsWritten) {
        this.context = context;
        this.out = out;
        this.maxUnsentBytes = maxUnsentBytes;
        this.nanoClock = nanoClock;
        this.eventsWritten = eventsWritten;
        this.progressNanos = nanoClock.getAsLong();
    }

    /** Starts writing: registers this as the output's write listener (Jetty calls {@link #onWritePossible} at once). */
    void open() {
        out.setWriteListener(this);
    }

    /**
     * Queues {@code frames} unless the stream is ending, or more than the budget is still unsent from earlier frames
     * (then nothing is queued and the caller sheds the stream); writes what the socket takes now.
     */
    Sent send(Frame... frames) {
        boolean complete;
        synchronized (this) {
            if (ended || finishing) {
                return Sent.ENDED;
            }
            if (queuedBytes + handedBytes > maxUnsentBytes) {
                return Sent.OVER_BUDGET;
            }
            if (queuedBytes + handedBytes == 0) {
                progressNanos = nanoClock.getAsLong(); // the drain deadline counts from the first unsent byte
            }
            for (Frame frame : frames) {
                queue.add(frame);
                queuedBytes += frame.bytes().length;
            }
            complete = drain();
        }
        if (complete) {
            completeQuietly();
        }
        return Sent.QUEUED;
    }

    /**
     * Runs {@code task} on one of the container's threads ({@link AsyncContext#start}), or on the calling thread when
     * the request is over and the container takes no more tasks for it.
     */
    void execute(Runnable task) {
        try {
            context.start(task);
        } catch (RuntimeException requestOver) {
            task.run();
        }
    }

    /** Queues the stream's last frame; the request completes once everything queued is written. */
    void finish(Frame last) {
        boolean complete;
        synchronized (this) {
            if (ended || finishing) {
                return;
            }
            queue.add(last);
            queuedBytes += last.bytes().length;
            finishing = true;
            complete = drain();
        }
        if (complete) {
            completeQuietly();
        }
    }

    /** Bytes queued or handed to Jetty and not yet taken by the socket. */
    synchronized long unsentBytes() {
        return queuedBytes + handedBytes;
    }

    /** Whether bytes are unsent and the socket has taken nothing for {@code drainTimeoutNanos} until {@code nowNanos}. */
    synchronized boolean stalled(long nowNanos, long drainTimeoutNanos) {
        return !ended && queuedBytes + handedBytes > 0 && nowNanos - progressNanos > drainTimeoutNanos;
    }

    /**
     * Ends the stream at once: writes {@code last} if nothing is pending and the socket takes it whole, then completes;
     * otherwise aborts the response without waiting for the client. Returns whether {@code last} was written.
     */
    boolean shed(Frame last) {
        boolean written = false;
        synchronized (this) {
            if (ended) {
                return false;
            }
            ended = true;
            queue.clear();
            queuedBytes = 0;
            try {
                if (!flushing && handedBytes == 0 && out.isReady()) {
                    out.write(last.bytes());
                    out.flush();
                    written = out.isReady(); // taken whole by the socket, nothing left pending
                }
            } catch (IOException | IllegalStateException failed) {
                written = false;
            }
        }
        if (written) {
            completeQuietly();
        } else {
            abort(new IOException("slow consumer shed"));
        }
        return written;
    }

    /** Ends the stream without a last frame (the request failed or completed): nothing more is written. */
    void close() {
        boolean complete;
        synchronized (this) {
            complete = !ended;
            ended = true;
            queue.clear();
            queuedBytes = 0;
        }
        if (complete) {
            completeQuietly();
        }
    }

    @Override
    public void onWritePossible() {
        boolean complete;
        synchronized (this) {
            complete = drain();
        }
        if (complete) {
            completeQuietly();
        }
    }

    @Override
    public void onError(Throwable failure) {
        synchronized (this) {
            ended = true;
            queue.clear();
            queuedBytes = 0;
        }
        completeQuietly();
    }

    /** With the monitor held: writes while the socket takes bytes; true when the stream finished and is to complete. */
    @GuardedBy("this")
    private boolean drain() {
        try {
            while (!ended && out.isReady()) {
                if (flushing) {
                    flushing = false;
                    handedBytes = 0; // the flush completed: everything handed before it is with the socket
                }
                progressNanos = nanoClock.getAsLong();
                Frame next = queue.poll();
                if (next != null) {
                    queuedBytes -= next.bytes().length;
                    handedBytes += next.bytes().length;
                    out.write(next.bytes());
                    if (next.events() > 0) {
                        eventsWritten.mark(next.events());
                    }
                } else if (handedBytes > 0) {
                    flushing = true;
                    out.flush(); // Jetty aggregates small writes: without a flush a frame could wait for more
                } else {
                    if (finishing) {
                        ended = true;
                        return true;
                    }
                    return false;
                }
            }
            return false;
        } catch (IOException | IllegalStateException failed) {
            ended = true; // the client left, or Jetty completed the request: onError or the listener ends the rest
            queue.clear();
            queuedBytes = 0;
            return true;
        }
    }

    private void completeQuietly() {
        try {
            context.complete();
        } catch (IllegalStateException alreadyCompleted) {
            // Jetty completed the failed request itself.
        }
    }

    /** Ends the response at once, without waiting for a pending write (see the class comment). */
    private void abort(Throwable why) {
        try {
            ServletContextRequest request = ServletContextRequest.getServletContextRequest(context.getRequest());
            Connection connection = request.getConnectionMetaData().getConnection();
            if (connection instanceof HTTP2Connection http2) {
                // One stream of a shared connection: reset it alone (a core request's id is its HTTP/2 stream's id).
                Stream stream = http2.getSession().getStream(Integer.parseInt(request.getId()));
                if (stream != null) {
                    stream.reset(new ResetFrame(stream.getId(), ErrorCode.CANCEL_STREAM_ERROR.code), Callback.NOOP);
                } else {
                    request.getServletChannel().abort(why); // already gone from the session: fail the response
                }
            } else {
                // The connection is this stream's alone, and its pending write can only fail with it.
                connection.getEndPoint().close(why);
            }
        } catch (RuntimeException alreadyCompleted) {
            completeQuietly();
        }
    }
}
