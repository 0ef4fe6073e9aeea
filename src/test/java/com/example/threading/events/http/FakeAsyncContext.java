package com.example.threading.events.http;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A started async request without a container, for unit tests of the hub and its polls. It records the
 * listeners, the answer (status, headers, body) and every {@link #complete()}, and lets the test play Jetty:
 * {@link #writePossible()} runs the registered write callback, {@link #timeout()} and {@link #fail} fire the
 * listeners' callbacks. With {@code writeAtOnce} the write callback runs inside {@code setWriteListener}, as if
 * the socket were always ready.
 *
 * <p>Thread-safety: a test may play several callbacks of one request from different threads at once (Jetty runs
 * them one at a time, so this is harsher than the real thing); all recorded state is in atomic or concurrent
 * holders. Like Jetty, a second {@code complete()} throws {@link IllegalStateException}, and is counted.
 */
final class FakeAsyncContext implements AsyncContext {

    private final boolean writeAtOnce;
    private final List<AsyncListener> listeners = new CopyOnWriteArrayList<>();
    private final AtomicInteger completions = new AtomicInteger();
    private final AtomicReference<WriteListener> writeListener = new AtomicReference<>();
    private final AtomicInteger status = new AtomicInteger();
    private final Map<String, String> headers = new ConcurrentHashMap<>();
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private final HttpServletResponse response;
    private volatile long timeoutMs;
    private volatile boolean ready = true;

    FakeAsyncContext(boolean writeAtOnce) {
        this.writeAtOnce = writeAtOnce;
        ServletOutputStream out = new Output();
        this.response = (HttpServletResponse) Proxy.newProxyInstance(HttpServletResponse.class.getClassLoader(),
                new Class<?>[] {HttpServletResponse.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getOutputStream" -> out;
                    case "setStatus" -> {
                        status.set((Integer) args[0]);
                        yield null;
                    }
                    case "setHeader" -> {
                        headers.put((String) args[0], (String) args[1]);
                        yield null;
                    }
                    case "setContentType", "setContentLength" -> null;
                    case "toString" -> "response of " + this;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** Runs the registered write callback (Jetty: "the socket can take bytes"); false if none is registered. */
    boolean writePossible() {
        WriteListener listener = writeListener.get();
        if (listener == null) {
            return false;
        }
        try {
            listener.onWritePossible();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return true;
    }

    /** Whether the output takes bytes now ({@code isReady}); true unless a test plays a slow client. */
    void ready(boolean takesBytes) {
        ready = takesBytes;
    }

    /** The registered write listener, or null. */
    WriteListener writeListener() {
        return writeListener.get();
    }

    /** Fires the async timeout on every listener. */
    void timeout() {
        listeners.forEach(listener -> {
            try {
                listener.onTimeout(new AsyncEvent(this));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Reports a failed request (client reset, connection failure) to every listener. */
    void fail(Throwable failure) {
        listeners.forEach(listener -> {
            try {
                listener.onError(new AsyncEvent(this, failure));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** How many times {@link #complete()} was called. */
    int completions() {
        return completions.get();
    }

    /** The status set on the response, 0 if none. */
    int status() {
        return status.get();
    }

    /** A header set on the response, or null. */
    String header(String name) {
        return headers.get(name);
    }

    /** The bytes written, as UTF-8. */
    String body() {
        synchronized (body) {
            return body.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void complete() {
        if (completions.incrementAndGet() > 1) {
            throw new IllegalStateException("already completed");
        }
        listeners.forEach(listener -> {
            try {
                listener.onComplete(new AsyncEvent(this));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @Override
    public void addListener(AsyncListener listener) {
        listeners.add(listener);
    }

    @Override
    public void addListener(AsyncListener listener, ServletRequest request, ServletResponse response) {
        listeners.add(listener);
    }

    @Override
    public ServletRequest getRequest() {
        return null;
    }

    @Override
    public ServletResponse getResponse() {
        return response;
    }

    @Override
    public boolean hasOriginalRequestAndResponse() {
        return true;
    }

    @Override
    public void setTimeout(long timeout) {
        this.timeoutMs = timeout;
    }

    @Override
    public long getTimeout() {
        return timeoutMs;
    }

    @Override
    public void dispatch() {
        throw new UnsupportedOperationException("dispatch");
    }

    @Override
    public void dispatch(String path) {
        throw new UnsupportedOperationException("dispatch");
    }

    @Override
    public void dispatch(ServletContext context, String path) {
        throw new UnsupportedOperationException("dispatch");
    }

    @Override
    public void start(Runnable run) {
        throw new UnsupportedOperationException("start");
    }

    @Override
    public <T extends AsyncListener> T createListener(Class<T> type) {
        throw new UnsupportedOperationException("createListener");
    }

    /** An output stream that keeps what is written, ready unless the test says otherwise. */
    private final class Output extends ServletOutputStream {

        @Override
        public boolean isReady() {
            return ready;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            if (!writeListener.compareAndSet(null, listener)) {
                throw new IllegalStateException("a write listener is already set");
            }
            if (writeAtOnce) {
                writePossible();
            }
        }

        @Override
        public void write(int b) {
            synchronized (body) {
                body.write(b);
            }
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            synchronized (body) {
                body.write(bytes, offset, length);
            }
        }
    }
}
