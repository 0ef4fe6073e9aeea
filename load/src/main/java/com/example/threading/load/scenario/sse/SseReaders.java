package com.example.threading.load.scenario.sse;

import com.example.threading.load.engine.http.Protocol;
import java.lang.reflect.Method;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.sse.EventSource;
import okhttp3.sse.EventSourceListener;
import okhttp3.sse.EventSources;

/**
 * Server-Sent Events readers on OkHttp's {@code EventSource} (okhttp-sse): the tool parses neither HTTP nor the event
 * stream itself. Over h2c the streams share connections ({@code H2_PRIOR_KNOWLEDGE}; OkHttp opens another connection when
 * one has as many streams as the server allows), over HTTP/1.1 each stream has a connection of its own.
 *
 * <p>OkHttp reads each response body on a thread of its dispatcher, for the stream's whole life: one thread per open
 * stream. From JDK 24 on they are virtual threads (OkHttp 5 waits with {@code Object.wait} inside {@code synchronized},
 * which pins a virtual thread's carrier before JDK 24, JEP 491); before that, platform threads with a 256 KiB stack, and
 * at most {@link #PLATFORM_THREAD_LIMIT} streams per run (the machine's {@code pid_max} counts every thread).
 *
 * <p>Thread-safety: the scenario's thread opens and closes; each stream's events arrive on its own reader thread, in
 * order, and are handed to the {@link Listener} there; the counters are atomic.
 */
final class SseReaders implements AutoCloseable {

    /** Streams at most on platform threads (JDK below 24): each holds a thread. */
    static final int PLATFORM_THREAD_LIMIT = 8_000;

    /** Streams opened at once before waiting for them to be open (a burst of thousands of connects overflows the accept queue). */
    private static final int OPENING_AT_ONCE = 500;

    /** What a reader receives. */
    interface Listener {
        /** An event of reader {@code reader}, read at {@code atNanos} ({@link System#nanoTime()}); called on its reader thread. */
        void event(int reader, String id, String type, String data, long atNanos);
    }

    private final Protocol protocol;
    private final ExecutorService threads;
    private final OkHttpClient client;
    private final List<EventSource> sources = new ArrayList<>();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    private final AtomicInteger closed = new AtomicInteger();
    private final AtomicLong finalEvents = new AtomicLong();
    private volatile String lastFailure = "";

    /** Readers speaking {@code protocol}, for at most {@code streams} streams at once. */
    SseReaders(Protocol protocol, int streams) {
        this.protocol = protocol;
        this.threads = readerThreads();
        Dispatcher dispatcher = new Dispatcher(threads);
        dispatcher.setMaxRequests(streams + 16);
        dispatcher.setMaxRequestsPerHost(streams + 16);
        this.client = new OkHttpClient.Builder()
                .dispatcher(dispatcher)
                .protocols(protocol == Protocol.H2C ? List.of(okhttp3.Protocol.H2_PRIOR_KNOWLEDGE) : List.of(okhttp3.Protocol.HTTP_1_1))
                .connectionPool(new ConnectionPool(protocol == Protocol.H2C ? 64 : streams + 16, 5, TimeUnit.MINUTES))
                // A stream is idle between events for as long as the scenario wants: no read timeout; the scenario's own
                // deadlines end every wait, and close() cancels every stream.
                .readTimeout(Duration.ZERO)
                .callTimeout(Duration.ZERO)
                .connectTimeout(Duration.ofSeconds(10))
                .retryOnConnectionFailure(false)
                .build();
    }

    /** Whether readers run on virtual threads in this JVM (JDK 24+). */
    static boolean virtualThreads() {
        return Runtime.version().feature() >= 24;
    }

    /** What the readers run on, for the report. */
    static String threadKind() {
        return virtualThreads() ? "virtual threads (JDK " + Runtime.version().feature() + ")"
                : "platform threads, 256 KiB stacks (JDK " + Runtime.version().feature() + "; virtual threads need JDK 24+ with OkHttp 5)";
    }

    private static ExecutorService readerThreads() {
        if (virtualThreads()) {
            try {
                // Compiled for --release 17: the JDK 21+ method by reflection.
                Method method = java.util.concurrent.Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
                return (ExecutorService) method.invoke(null);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("JDK " + Runtime.version() + " has no virtual-thread executor", e);
            }
        }
        AtomicInteger count = new AtomicInteger();
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), task -> {
            Thread thread = new Thread(null, task, "sse-reader-" + count.incrementAndGet(), 256 * 1024);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Opens one stream per URL (reader {@code i} reads {@code urls.get(i)}, numbered from {@code firstReader}), at most
     * {@link #OPENING_AT_ONCE} opening at a time; returns how many of all this object's streams are open when they are, or
     * when {@code deadlineNanos} passes.
     */
    int open(List<URI> urls, int firstReader, Listener listener, long deadlineNanos) throws InterruptedException {
        EventSource.Factory factory = EventSources.createFactory(client);
        int target = open.get() + failed.get();
        for (int i = 0; i < urls.size(); i++) {
            int reader = firstReader + i;
            Request request = new Request.Builder().url(urls.get(i).toString()).header("Accept", "text/event-stream").build();
            sources.add(factory.newEventSource(request, new EventSourceListener() {
                @Override
                public void onOpen(EventSource source, Response response) {
                    open.incrementAndGet();
                }

                @Override
                public void onEvent(EventSource source, String id, String type, String data) {
                    long at = System.nanoTime();
                    if (type != null && !type.equals("message")) {
                        finalEvents.incrementAndGet();
                    }
                    listener.event(reader, id, type, data, at);
                }

                @Override
                public void onClosed(EventSource source) {
                    closed.incrementAndGet();
                }

                @Override
                public void onFailure(EventSource source, Throwable failure, Response response) {
                    failed.incrementAndGet();
                    lastFailure = failure != null ? failure.toString() : response != null ? "status " + response.code() : "unknown";
                }
            }));
            target++;
            if ((i + 1) % OPENING_AT_ONCE == 0) {
                awaitOpen(target, deadlineNanos);
            }
        }
        return awaitOpen(target, deadlineNanos);
    }

    private int awaitOpen(int target, long deadlineNanos) throws InterruptedException {
        while (open.get() + failed.get() < target && System.nanoTime() < deadlineNanos) {
            Thread.sleep(20);
        }
        return open.get();
    }

    Protocol protocol() {
        return protocol;
    }

    /** Streams that opened (answered 200 with an event stream). */
    int opened() {
        return open.get();
    }

    /** Streams that failed: refused, cut, or not connected. */
    int failed() {
        return failed.get();
    }

    /** Streams the server ended. */
    int closedByServer() {
        return closed.get();
    }

    /** Events with a type of their own (shed, closing, reconnect, refused, missed). */
    long finalEvents() {
        return finalEvents.get();
    }

    /** What the last failure was ("" when none). */
    String lastFailure() {
        return lastFailure;
    }

    /** Cancels every stream, stops the reader threads and closes the connections. */
    @Override
    public void close() {
        sources.forEach(EventSource::cancel);
        client.dispatcher().cancelAll();
        threads.shutdownNow();
        client.connectionPool().evictAll();
        try {
            threads.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
