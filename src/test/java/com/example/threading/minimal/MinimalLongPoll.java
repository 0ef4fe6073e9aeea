package com.example.threading.minimal;

import io.dropwizard.core.setup.Environment;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.eclipse.jetty.util.component.LifeCycle;

/**
 * GET parks the request (a started AsyncContext: no thread waits) until {@link #publish} answers all parked polls in
 * one batch; 204 after {@code timeout}; 503 at once beyond {@code maxParked} polls and to all when the server stops.
 * Thread-safety: removing a poll from {@code parked} claims it: one answer, one place back, from any thread.
 */
public final class MinimalLongPoll extends HttpServlet implements AsyncListener, LifeCycle.Listener {
    private final Map<AsyncContext, PrintWriter> parked = new ConcurrentHashMap<>();
    private final Semaphore places;
    private final Duration timeout;

    public MinimalLongPoll(int maxParked, Duration timeout) {
        this.places = new Semaphore(maxParked);
        this.timeout = timeout;
    }

    /** Serves GET {@code path}; answers the parked polls as the server starts to stop (then Jetty refuses new ones). */
    public void register(Environment environment, String path) {
        environment.servlets().addServlet("minimal-longpoll", this).addMapping(path);
        environment.lifecycle().addEventListener(this);
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("application/json");
        if (!places.tryAcquire()) {
            response.setHeader("Retry-After", "1");
            response.setStatus(503);
            return;
        }
        AsyncContext poll = request.startAsync();
        poll.setTimeout(timeout.toMillis());
        poll.addListener(this);
        parked.put(poll, response.getWriter());
    }

    /** Answers every poll parked now with the event {@code json}. */
    public void publish(String json) {
        parked.keySet().forEach(poll -> answer(poll, 200, json));
    }

    @Override
    public void lifeCycleStopping(LifeCycle server) {
        parked.keySet().forEach(poll -> answer(poll, 503, ""));
    }

    @Override public void onTimeout(AsyncEvent event) { answer(event.getAsyncContext(), 204, ""); }
    @Override public void onError(AsyncEvent event) { answer(event.getAsyncContext(), 500, ""); }
    @Override public void onComplete(AsyncEvent event) { }
    @Override public void onStartAsync(AsyncEvent event) { }

    private void answer(AsyncContext poll, int status, String json) {
        PrintWriter body = parked.remove(poll);
        if (body != null) {
            places.release();
            ((HttpServletResponse) poll.getResponse()).setStatus(status);
            body.write(json);
            poll.complete();
        }
    }
}
