package com.example.threading.events.publish;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads one request body of an async request without holding a thread while the client is slow: {@link #read}
 * only registers a {@link ReadListener}, and Jetty calls {@link #onDataAvailable} on one of its threads when
 * bytes have arrived. A client that sends {@code Content-Length: 100} and then two bytes holds a few hundred bytes
 * of memory until the deadline, not a thread.
 *
 * <p>The result completes with the body, or exceptionally with a {@link BodyRefusal} carrying the JSON answer to give:
 * {@code 408} when the whole body has not arrived within the deadline, {@code 413} when it grows past the limit
 * (a chunked body has no length to check first), {@code 400} when it ends early (the connection was closed before
 * {@code Content-Length} bytes) or its framing is broken.
 *
 * <p>Thread-safety: Jetty runs one request's read callbacks one at a time, so the buffer is only touched by one
 * thread at a time; the deadline fires on the JDK's delay-scheduler thread and only completes the result (a
 * {@code CompletableFuture}, so exactly one outcome wins). Callbacks that come after the outcome read nothing.
 * {@code inFlight} is shared by all bodies (atomic): incremented by {@link #read}, decremented once per body when
 * its result completes. {@code NonBlockingBodyTest} plays Jetty's callbacks against a deadline that fires on the
 * scheduler's thread: the body is counted out once, and a later callback reads nothing.
 */
final class NonBlockingBody implements ReadListener {

    private final ServletInputStream in;
    private final long maxBytes;
    private final CompletableFuture<byte[]> result;
    private final ByteArrayOutputStream received;
    private final byte[] buffer = new byte[1024];

    private NonBlockingBody(ServletInputStream in, long maxBytes, int expectedBytes, CompletableFuture<byte[]> result) {
        this.in = in;
        this.maxBytes = maxBytes;
        this.result = result;
        this.received = new ByteArrayOutputStream(expectedBytes);
    }

    /**
     * Starts reading the body of a request already in async mode; {@code declaredLength} is its
     * {@code Content-Length} (-1 when chunked), already checked against {@code maxBytes}.
     */
    static CompletableFuture<byte[]> read(ServletInputStream in, long declaredLength, long maxBytes, long deadlineMs,
                                          AtomicInteger inFlight) {
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        inFlight.incrementAndGet();
        result.whenComplete((body, failure) -> inFlight.decrementAndGet());
        result.orTimeout(deadlineMs, TimeUnit.MILLISECONDS);
        int expected = (int) Math.min(declaredLength < 0 ? 256 : declaredLength, maxBytes);
        in.setReadListener(new NonBlockingBody(in, maxBytes, expected, result));
        return result;
    }

    /** The answer to give for a body that could not be read ({@code failure} from {@link #read}'s result). */
    static BodyRefusal refusalFor(Throwable failure, long deadlineMs) {
        if (failure instanceof BodyRefusal refusal) {
            return refusal;
        }
        if (failure instanceof TimeoutException) {
            return new BodyRefusal(408, "the request body did not arrive within " + deadlineMs + " ms");
        }
        return new BodyRefusal(400, "the request body could not be read");
    }

    @Override
    public void onDataAvailable() throws IOException {
        while (!result.isDone() && in.isReady()) {
            int n = in.read(buffer);
            if (n < 0) {
                return; // the end: onAllDataRead follows
            }
            received.write(buffer, 0, n);
            if (received.size() > maxBytes) {
                result.completeExceptionally(new BodyRefusal(413, "the request body is limited to " + maxBytes + " bytes"));
                return;
            }
        }
    }

    @Override
    public void onAllDataRead() {
        result.complete(received.toByteArray());
    }

    @Override
    public void onError(Throwable failure) {
        // Early EOF (the client closed before Content-Length bytes), broken chunking, idle timeout, reset.
        result.completeExceptionally(new BodyRefusal(400, "the request body ended early or is malformed"));
    }
}
