package com.example.threading.load.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;

/**
 * Long-poll clients: each one loops {@code GET path?after=<last id seen>&timeout=..} for its iterations,
 * sending the next request as soon as the previous answer arrives (a closed loop per client, which Jetty's
 * load generator, open-loop and stateless, cannot express). Runs on one Jetty HttpClient with a connection
 * per client.
 *
 * <p>Thread-safety: {@link #run} is called once (checked), on its caller's thread, which waits and shows
 * progress; each client's next poll is sent from the HttpClient's thread that completed the previous one,
 * or from the retry thread after a failure. The counters are atomic and may be read from any thread; once
 * run has returned they no longer change (it stops the HttpClient, whose threads it joins).
 */
public final class PollingClients {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration RETRY_DELAY = Duration.ofMillis(500);

    private final URI uri;
    private final int clients;
    private final int iterations;
    private final int timeoutSeconds;
    private final boolean waitForNext;
    private final PhaseRecorder recorder;
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong missed = new AtomicLong();
    private final AtomicLong noEvent = new AtomicLong();
    private final AtomicLong unparsable = new AtomicLong();
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile boolean stopped;

    /** Clients of {@code uri} (no query), each polling {@code iterations} times. */
    public PollingClients(URI uri, int clients, int iterations, int timeoutSeconds, boolean waitForNext, PhaseRecorder recorder) {
        this.uri = uri;
        this.clients = clients;
        this.iterations = iterations;
        this.timeoutSeconds = timeoutSeconds;
        this.waitForNext = waitForNext;
        this.recorder = recorder;
    }

    /** Runs every client until its iterations are done or the deadline passes; returns whether all finished. */
    public boolean run(long deadlineNanos, Progress progress) throws Exception {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("PollingClients run once; make new ones for another run");
        }
        HttpClient client = new HttpClient(new HttpClientTransportOverHTTP(1));
        client.setMaxConnectionsPerDestination(clients + 16);
        client.setMaxRequestsQueuedPerDestination(clients * 2 + 16);
        client.setIdleTimeout(TimeUnit.NANOSECONDS.toMillis(Math.max(1, deadlineNanos - System.nanoTime())) + 1_000);
        client.setConnectTimeout(10_000);
        ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "long-poll-retry");
            thread.setDaemon(true);
            return thread;
        });
        CountDownLatch finished = new CountDownLatch(clients);
        client.start();
        try {
            for (int i = 0; i < clients; i++) {
                poll(client, retries, finished, null, iterations);
            }
            while (System.nanoTime() < deadlineNanos && !finished.await(200, TimeUnit.MILLISECONDS)) {
                progress.update(recorder.answeredCount(), recorder.okCount());
            }
            return finished.getCount() == 0;
        } finally {
            stopped = true;
            recorder.finish("HTTP/1.1", uri.getPath(), 0);
            retries.shutdownNow();
            client.stop();
        }
    }

    private void poll(HttpClient client, ScheduledExecutorService retries, CountDownLatch finished, Long after, int remaining) {
        if (stopped) {
            return;
        }
        StringBuilder query = new StringBuilder("timeout=").append(timeoutSeconds);
        if (after != null && !waitForNext) {
            query.append("&after=").append(after);
        }
        long start = System.nanoTime();
        recorder.sent();
        client.newRequest(uri.resolve(uri.getPath() + "?" + query))
                .timeout(timeoutSeconds + 60L, TimeUnit.SECONDS)
                .send(new BufferingResponseListener(1 << 20) {
                    @Override
                    public void onComplete(Result result) {
                        long end = System.nanoTime();
                        Outcome outcome = result.isSucceeded() ? Outcome.ofStatus(result.getResponse().getStatus())
                                : Outcome.ofFailure(result.getFailure());
                        recorder.record(outcome, start, end);
                        Long next = after;
                        if (result.isSucceeded() && result.getResponse().getStatus() == 200) {
                            next = lastId(getContentAsString(), after);
                        } else if (result.isSucceeded() && result.getResponse().getStatus() == 204) {
                            noEvent.incrementAndGet();
                        }
                        if (remaining <= 1 || stopped) {
                            finished.countDown();
                            return;
                        }
                        Long cursor = next;
                        if (outcome == Outcome.OK) {
                            poll(client, retries, finished, cursor, remaining - 1);
                        } else {
                            // Refused or failed: back off a little instead of hammering the service.
                            retries.schedule(() -> poll(client, retries, finished, cursor, remaining - 1),
                                    RETRY_DELAY.toMillis(), TimeUnit.MILLISECONDS);
                        }
                    }
                });
    }

    private Long lastId(String body, Long previous) {
        try {
            JsonNode json = JSON.readTree(body);
            JsonNode list = json.path("events");
            events.addAndGet(list.size());
            if (json.path("missed").asBoolean(false)) {
                missed.incrementAndGet();
            }
            if (json.hasNonNull("lastId")) {
                return json.get("lastId").asLong();
            }
            long max = previous == null ? Long.MIN_VALUE : previous;
            for (JsonNode event : list) {
                max = Math.max(max, event.path("id").asLong(max));
            }
            return max == Long.MIN_VALUE ? previous : max;
        } catch (IOException e) {
            unparsable.incrementAndGet();
            return previous;
        }
    }

    /** Events received in all 200 answers. */
    public long events() {
        return events.get();
    }

    /** Answers flagged "missed" (the cursor had fallen out of the history). */
    public long missed() {
        return missed.get();
    }

    /** 204 answers: the wait timed out without an event. */
    public long noEvent() {
        return noEvent.get();
    }

    /** 200 answers whose body was not the documented JSON. */
    public long unparsable() {
        return unparsable.get();
    }
}
