package com.example.threading.events.sse;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A test's Server-Sent Events client on the JDK's {@code HttpClient}: reads the stream's lines on a thread of its own
 * and hands each event (id, type, data) to the test; counts comment lines (heartbeats) and {@code retry:} values.
 */
final class SseReader implements AutoCloseable {

    /** One event as the client assembles it; {@code type} "message" when the stream gave none. */
    record SseEvent(String id, String type, String data) {
    }

    /** What ends the queue when the stream ends. */
    private static final SseEvent END = new SseEvent(null, "end-of-stream", null);

    private final HttpResponse<Stream<String>> response;
    private final BlockingQueue<SseEvent> events = new LinkedBlockingQueue<>();
    private final AtomicInteger comments = new AtomicInteger();
    private volatile String retry;
    private final Thread reading;

    private SseReader(HttpResponse<Stream<String>> response) {
        this.response = response;
        this.reading = new Thread(this::read, "sse-reader");
        reading.setDaemon(true);
        reading.start();
    }

    /** Opens {@code url} with {@code headers} (name, value, ...); returns once the response head is in. */
    static SseReader open(HttpClient client, String url, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("Accept", "text/event-stream");
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return new SseReader(client.sendAsync(request.GET().build(), HttpResponse.BodyHandlers.ofLines())
                .get(30, TimeUnit.SECONDS));
    }

    HttpResponse<Stream<String>> response() {
        return response;
    }

    /** The next event within {@code bound}; an {@code end-of-stream} event once the stream ended; AssertionError if none. */
    SseEvent next(Duration bound) throws InterruptedException {
        SseEvent event = events.poll(bound.toMillis(), TimeUnit.MILLISECONDS);
        if (event == null) {
            throw new AssertionError("no event within " + bound);
        }
        if (event == END) {
            events.add(END); // stays ended
        }
        return event;
    }

    /** The next event within {@code bound}, or null. */
    SseEvent poll(Duration bound) throws InterruptedException {
        SseEvent event = events.poll(bound.toMillis(), TimeUnit.MILLISECONDS);
        if (event == END) {
            events.add(END);
        }
        return event;
    }

    int comments() {
        return comments.get();
    }

    String retry() {
        return retry;
    }

    private void read() {
        String id = null;
        String type = null;
        StringBuilder data = null;
        try {
            Iterator<String> lines = response.body().iterator();
            while (lines.hasNext()) {
                String line = lines.next();
                if (line.isEmpty()) {
                    if (data != null) {
                        events.add(new SseEvent(id, type == null ? "message" : type, data.toString()));
                    }
                    id = null;
                    type = null;
                    data = null;
                } else if (line.startsWith(":")) {
                    comments.incrementAndGet();
                } else if (line.startsWith("id: ")) {
                    id = line.substring(4);
                } else if (line.startsWith("event: ")) {
                    type = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data = data == null ? new StringBuilder(line.substring(6)) : data.append('\n').append(line.substring(6));
                } else if (line.startsWith("retry: ")) {
                    retry = line.substring(7);
                }
            }
        } catch (RuntimeException streamFailed) {
            // the connection was closed or reset: the stream ended
        } finally {
            events.add(END);
        }
    }

    /** Closes the stream: the client drops the connection. */
    @Override
    public void close() {
        response.body().close();
    }
}
