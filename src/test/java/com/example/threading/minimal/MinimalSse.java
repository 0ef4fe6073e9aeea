package com.example.threading.minimal;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.dropwizard.core.setup.Environment;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.util.component.LifeCycle;

/**
 * GET opens a text/event-stream (a started AsyncContext: no thread waits); {@link #publish} queues a frame per stream,
 * written by its WriteListener while its socket takes bytes: a slow reader delays no one, and one with more than
 * {@code maxQueued} frames unsent is shed. 503 beyond {@code maxStreams}; all streams end when the server stops.
 * Thread-safety: each stream's queue and writes are guarded by the stream; leaving {@code streams} ends it once. */
public final class MinimalSse extends HttpServlet implements LifeCycle.Listener {
    private final Set<Stream> streams = ConcurrentHashMap.newKeySet();
    private final AtomicLong ids = new AtomicLong();
    private final Semaphore places;
    private final int maxQueued;

    public MinimalSse(int maxStreams, int maxQueued) { places = new Semaphore(maxStreams); this.maxQueued = maxQueued; }

    public void register(Environment environment, String path) {
        environment.servlets().addServlet("minimal-sse", this).addMapping(path);
        environment.lifecycle().addEventListener(this);
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!places.tryAcquire()) { response.setStatus(503); return; }
        response.setContentType("text/event-stream");
        Stream stream = new Stream(request.startAsync());
        streams.add(stream);
        stream.out.setWriteListener(stream);
        stream.send(": open\n\n");
    }
    public void publish(String json) {
        String frame = "id: " + ids.incrementAndGet() + "\ndata: " + json + "\n\n";
        streams.forEach(stream -> stream.send(frame));
    }
    @Override public void lifeCycleStopping(LifeCycle server) { streams.forEach(Stream::end); }

    private final class Stream implements WriteListener {
        private final Deque<byte[]> queue = new ArrayDeque<>();
        private final AsyncContext context;
        private final ServletOutputStream out;
        Stream(AsyncContext context) throws IOException {
            this.context = context;
            out = context.getResponse().getOutputStream();
            context.setTimeout(0); // no end but the client's, the shedding and the stop
        }
        synchronized void send(String frame) {
            queue.add(frame.getBytes(UTF_8));
            if (queue.size() > maxQueued) end(); else onWritePossible(); // a slow consumer is shed
        }
        @Override public synchronized void onWritePossible() {
            try {
                while (!queue.isEmpty() && out.isReady()) {
                    out.write(queue.poll());
                    if (out.isReady()) out.flush(); // now, not once Jetty's buffer is full
                }
            } catch (IOException | IllegalStateException gone) {
                end();
            }
        }
        @Override public void onError(Throwable failure) { end(); }
        void end() { if (streams.remove(this)) { places.release(); context.complete(); } }
    }
}
