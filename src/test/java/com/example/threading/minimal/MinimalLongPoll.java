package com.example.threading.minimal;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.eclipse.jetty.util.component.LifeCycle;

/**
 * GET ?after=n: the events after n at once from a bounded history ("missed": n fell out), else parked until {@link
 * #publish} answers all parked polls in one batch on container threads; 204 at the timeout; 503 beyond maxParked and at
 * the stop. Thread-safety: a poll parks, then reads the history; a publish replaces it, then reads the parked.
 */
public final class MinimalLongPoll extends HttpServlet implements AsyncListener, LifeCycle.Listener {
    private record History(long lastId, List<String> events) { // events lastId - size + 1 .. lastId
        String after(long cursor) {
            int skip = (int) Math.max(0, Math.min(events.size(), cursor + events.size() - lastId));
            return "{\"events\":[" + String.join(",", events.subList(skip, events.size())) + "],\"lastId\":" + lastId
                    + ",\"missed\":" + (cursor < lastId - events.size() || cursor > lastId) + "}";
        }
    }
    private record Parked(long cursor, PrintWriter out) { }
    private final Map<AsyncContext, Parked> parked = new ConcurrentHashMap<>(); // removing a poll claims it: one answer
    private final Semaphore places;
    private final int historySize;
    private final Duration timeout;
    private volatile History history = new History(0, List.of()); // replaced under this's lock

    public MinimalLongPoll(int maxParked, int historySize, Duration timeout) {
        this.places = new Semaphore(maxParked); this.historySize = historySize; this.timeout = timeout;
    }
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        History now = history;
        String after = request.getParameter("after");
        long cursor = after == null ? now.lastId() : after.matches("\\d{1,18}") ? Long.parseLong(after) : -1;
        response.setContentType("application/json");
        if (cursor == now.lastId() && places.tryAcquire()) {
            AsyncContext poll = request.startAsync();
            poll.setTimeout(timeout.toMillis()); poll.addListener(this);
            parked.put(poll, new Parked(cursor, response.getWriter()));
            if (history.lastId() != cursor) answer(poll, 200, false); // published between the read and the park
        } else {
            response.setStatus(cursor < 0 ? 400 : cursor == now.lastId() ? 503 : 200);
            response.getWriter().write(cursor < 0 || cursor == now.lastId() ? "{}" : now.after(cursor));
        }
    }
    /** Appends the event {@code json} (id: the next), then answers every poll parked now with what it missed. */
    public synchronized void publish(String json) {
        List<String> events = new ArrayList<>(history.events());
        events.add("{\"id\":" + (history.lastId() + 1) + ",\"data\":" + json + "}");
        history = new History(history.lastId() + 1, List.copyOf(events.subList(Math.max(0, events.size() - historySize), events.size())));
        parked.keySet().forEach(poll -> answer(poll, 200, false));
    }
    @Override public void lifeCycleStopping(LifeCycle server) { parked.keySet().forEach(poll -> answer(poll, 503, false)); }
    @Override public void onTimeout(AsyncEvent event) { answer(event.getAsyncContext(), 204, true); } // inline: Jetty 500s
    @Override public void onError(AsyncEvent event) { answer(event.getAsyncContext(), 500, true); }
    @Override public void onComplete(AsyncEvent event) { } @Override public void onStartAsync(AsyncEvent event) { }
    private void answer(AsyncContext poll, int status, boolean inline) {
        Parked claimed = parked.remove(poll);
        if (claimed != null) {
            places.release();
            Runnable write = () -> { ((HttpServletResponse) poll.getResponse()).setStatus(status);
                claimed.out().write(status == 200 ? history.after(claimed.cursor()) : ""); poll.complete(); };
            if (inline) write.run(); else poll.start(write);
        }
    }
}
