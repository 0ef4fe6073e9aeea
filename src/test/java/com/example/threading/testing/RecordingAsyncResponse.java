package com.example.threading.testing;

import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.TimeoutHandler;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A suspended JAX-RS response for unit tests: like Jersey's, the first {@code resume} wins and later ones return
 * false; unlike it, every attempt is kept ({@link #attempts()}), so a test sees a second answer that lost. The timeout
 * is not scheduled: the test fires it with {@link #fireTimeout()}.
 *
 * <p>Thread-safety: {@code resume} may be called from any thread; exactly one call wins (a compare-and-set), and the
 * lists are concurrent. The timeout handler is set and fired by the test and the code under test in turn.
 */
public final class RecordingAsyncResponse implements AsyncResponse {

    private final AtomicBoolean done = new AtomicBoolean();
    private final List<Object> answers = new CopyOnWriteArrayList<>();
    private final List<Object> attempts = new CopyOnWriteArrayList<>();
    private volatile TimeoutHandler timeoutHandler;
    private volatile long timeoutMs = -1;

    @Override
    public boolean resume(Object response) {
        return record(response);
    }

    @Override
    public boolean resume(Throwable response) {
        return record(response);
    }

    private boolean record(Object response) {
        attempts.add(response);
        if (done.compareAndSet(false, true)) {
            answers.add(response);
            return true;
        }
        return false;
    }

    /** What the request was answered with: empty, or the one winning answer. */
    public List<Object> answers() {
        return List.copyOf(answers);
    }

    /** Every resume, won or lost. */
    public List<Object> attempts() {
        return List.copyOf(attempts);
    }

    /** Runs the timeout handler the code set, as Jersey's timeout thread would. */
    public void fireTimeout() {
        TimeoutHandler handler = timeoutHandler;
        if (handler == null) {
            throw new IllegalStateException("no timeout handler was set");
        }
        handler.handleTimeout(this);
    }

    /** The timeout the code asked for, in ms; -1 if none. */
    public long timeoutMs() {
        return timeoutMs;
    }

    @Override
    public boolean cancel() {
        return record("cancelled");
    }

    @Override
    public boolean cancel(int retryAfter) {
        return record("cancelled");
    }

    @Override
    public boolean cancel(Date retryAfter) {
        return record("cancelled");
    }

    @Override
    public boolean isSuspended() {
        return !done.get();
    }

    @Override
    public boolean isCancelled() {
        return answers.contains("cancelled");
    }

    @Override
    public boolean isDone() {
        return done.get();
    }

    @Override
    public boolean setTimeout(long time, TimeUnit unit) {
        timeoutMs = unit.toMillis(time);
        return !done.get();
    }

    @Override
    public void setTimeoutHandler(TimeoutHandler handler) {
        timeoutHandler = handler;
    }

    @Override
    public Collection<Class<?>> register(Class<?> callback) {
        throw new UnsupportedOperationException("callbacks are not used by the code under test");
    }

    @Override
    public Map<Class<?>, Collection<Class<?>>> register(Class<?> callback, Class<?>... callbacks) {
        throw new UnsupportedOperationException("callbacks are not used by the code under test");
    }

    @Override
    public Collection<Class<?>> register(Object callback) {
        throw new UnsupportedOperationException("callbacks are not used by the code under test");
    }

    @Override
    public Map<Class<?>, Collection<Class<?>>> register(Object callback, Object... callbacks) {
        throw new UnsupportedOperationException("callbacks are not used by the code under test");
    }
}
