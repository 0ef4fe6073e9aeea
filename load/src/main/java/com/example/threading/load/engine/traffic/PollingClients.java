package com.example.threading.load.engine.traffic;

import com.example.threading.load.engine.http.ClientConnections;
import com.example.threading.load.engine.recording.Outcome;
import com.example.threading.load.engine.recording.PhaseRecorder;
import com.example.threading.load.engine.recording.Progress;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.Connection;
import org.eclipse.jetty.client.Destination;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.io.ConnectionStatistics;
import org.eclipse.jetty.util.Promise;

/**
 * Long-poll clients: each one loops {@code GET path?after=<last id seen>&timeout=..} for its iterations,
 * sending the next request as soon as the previous answer arrives (a closed loop per client, which Jetty's
 * load generator, open-loop and stateless, cannot express). Each client holds a connection of its own (opened
 * through {@link Destination#newConnection}, not taken from the HttpClient's pool) and sends every poll on it, so
 * there is no client-side request queue: C clients are C sockets, each with at most one poll in flight. The
 * connections are opened first, at most {@value #CONNECTING_AT_ONCE} at a time (a burst of thousands of connects
 * overflows the server's accept queue and costs seconds of SYN retransmits); {@link #connections()} then says how
 * many were open when polling began, and the I/O layer's own count ({@link ConnectionStatistics}) how many were open
 * at most.
 *
 * <p>Thread-safety: {@link #run} (or {@link #connect} then {@link #poll}) is called once (checked), on its caller's
 * thread, which waits and shows progress; each client's next poll is sent from the HttpClient's thread that completed
 * the previous one, or from the retry thread after a failure (a failed poll's connection is closed and the client
 * opens a new one). The counters are atomic and may be read from any thread; once {@link #poll} has returned they no
 * longer change (it stops the HttpClient, whose threads it joins).
 */
public final class PollingClients {

    /** One polling run's shared parts: its recorder, the destination, the latch each client counts down when done. */
    private record Polling(PhaseRecorder recorder, Destination destination, CountDownLatch finished) {
    }

    /** Connects in flight at once while the clients open their connections. */
    public static final int CONNECTING_AT_ONCE = 256;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration RETRY_DELAY = Duration.ofMillis(500);

    private final URI uri;
    private final int clients;
    private final int iterations;
    private final int timeoutSeconds;
    private final boolean waitForNext;
    private final AtomicLong events = new AtomicLong();
    private final AtomicLong missed = new AtomicLong();
    private final AtomicLong noEvent = new AtomicLong();
    private final AtomicLong unparsable = new AtomicLong();
    private final AtomicLong connectFailures = new AtomicLong();
    private final AtomicLong reconnects = new AtomicLong();
    private final AtomicBoolean started = new AtomicBoolean();
    private final ConnectionStatistics statistics = new ConnectionStatistics();
    private final Connection[] connections;
    private HttpClient client;
    private ScheduledExecutorService retries;
    private long connectedAtStart;
    private volatile boolean stopped;

    /** Clients of {@code uri} (no query), each polling {@code iterations} times. */
    public PollingClients(URI uri, int clients, int iterations, int timeoutSeconds, boolean waitForNext) {
        this.uri = uri;
        this.clients = clients;
        this.iterations = iterations;
        this.timeoutSeconds = timeoutSeconds;
        this.waitForNext = waitForNext;
        this.connections = new Connection[clients];
    }

    /**
     * Opens every client's connection, then polls until each client is done or the deadline passes; returns whether all
     * finished. {@code recorder} records the polls (and its phase includes the connecting).
     */
    public boolean run(PhaseRecorder recorder, long deadlineNanos, Progress progress) throws Exception {
        connect(deadlineNanos);
        return poll(recorder, deadlineNanos, progress);
    }

    /**
     * Starts the HttpClient and opens one connection per client, {@value #CONNECTING_AT_ONCE} at a time, until all are
     * open or the deadline passes (a failed connect is retried after half a second); returns how many are open.
     * The recorder is not touched: connecting is not part of the measured phase.
     */
    public int connect(long deadlineNanos) throws Exception {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("PollingClients run once; make new ones for another run");
        }
        client = new HttpClient(new HttpClientTransportOverHTTP(1));
        client.setIdleTimeout(TimeUnit.NANOSECONDS.toMillis(Math.max(1, deadlineNanos - System.nanoTime())) + 1_000);
        client.setConnectTimeout(10_000);
        client.addBean(statistics);
        retries = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "long-poll-retry");
            thread.setDaemon(true);
            return thread;
        });
        client.start();
        Destination destination = client.resolveDestination(client.newRequest(uri));
        Semaphore connecting = new Semaphore(CONNECTING_AT_ONCE);
        CountDownLatch opened = new CountDownLatch(clients);
        for (int i = 0; i < clients && System.nanoTime() < deadlineNanos; i++) {
            if (!connecting.tryAcquire(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                break;
            }
            open(destination, i, connecting, opened, deadlineNanos);
        }
        opened.await(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        int open = 0;
        synchronized (connections) {
            for (Connection connection : connections) {
                open += connection != null && !connection.isClosed() ? 1 : 0;
            }
        }
        connectedAtStart = open;
        return open;
    }

    private void open(Destination destination, int index, Semaphore connecting, CountDownLatch opened, long deadlineNanos) {
        destination.newConnection(new Promise<>() {
            @Override
            public void succeeded(Connection connection) {
                synchronized (connections) {
                    connections[index] = connection;
                }
                connecting.release();
                opened.countDown();
            }

            @Override
            public void failed(Throwable failure) {
                connectFailures.incrementAndGet();
                if (stopped || System.nanoTime() > deadlineNanos) {
                    connecting.release();
                    opened.countDown();
                    return;
                }
                // Keep the permit: the retry is still this client's connect in flight.
                retries.schedule(() -> open(destination, index, connecting, opened, deadlineNanos), RETRY_DELAY.toMillis(),
                        TimeUnit.MILLISECONDS);
            }
        });
    }

    /**
     * Every client (with or without a connection: one without opens it first) polls its iterations on its own
     * connection until done or the deadline, each poll recorded by {@code recorder}; returns whether all finished. Stops
     * the HttpClient before it returns.
     */
    public boolean poll(PhaseRecorder recorder, long deadlineNanos, Progress progress) throws Exception {
        if (client == null) {
            throw new IllegalStateException("connect first");
        }
        CountDownLatch finished = new CountDownLatch(clients);
        Polling polling = new Polling(recorder, client.resolveDestination(client.newRequest(uri)), finished);
        try {
            for (int i = 0; i < clients; i++) {
                Connection connection;
                synchronized (connections) {
                    connection = connections[i];
                }
                if (connection == null || connection.isClosed()) {
                    reconnectThenPoll(polling, i, null, iterations);
                } else {
                    poll(polling, connection, i, null, iterations);
                }
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

    private void reconnectThenPoll(Polling polling, int index, Long after, int remaining) {
        if (stopped) {
            return;
        }
        polling.destination().newConnection(new Promise<>() {
            @Override
            public void succeeded(Connection connection) {
                reconnects.incrementAndGet();
                synchronized (connections) {
                    connections[index] = connection;
                }
                poll(polling, connection, index, after, remaining);
            }

            @Override
            public void failed(Throwable failure) {
                connectFailures.incrementAndGet();
                if (!stopped) {
                    retries.schedule(() -> reconnectThenPoll(polling, index, after, remaining), RETRY_DELAY.toMillis(),
                            TimeUnit.MILLISECONDS);
                }
            }
        });
    }

    private void poll(Polling polling, Connection connection, int index, Long after, int remaining) {
        if (stopped) {
            return;
        }
        StringBuilder query = new StringBuilder("timeout=").append(timeoutSeconds);
        if (after != null && !waitForNext) {
            query.append("&after=").append(after);
        }
        long start = System.nanoTime();
        polling.recorder().sent();
        Request request = client.newRequest(uri.resolve(uri.getPath() + "?" + query)).timeout(timeoutSeconds + 60L, TimeUnit.SECONDS);
        connection.send(request, new BufferingResponseListener(1 << 20) {
            @Override
            public void onComplete(Result result) {
                long end = System.nanoTime();
                Outcome outcome = result.isSucceeded() ? Outcome.ofStatus(result.getResponse().getStatus())
                        : Outcome.ofFailure(result.getFailure());
                polling.recorder().record(outcome, start, end);
                Long next = after;
                if (result.isSucceeded() && result.getResponse().getStatus() == 200) {
                    next = lastId(getContentAsString(), after);
                } else if (result.isSucceeded() && result.getResponse().getStatus() == 204) {
                    noEvent.incrementAndGet();
                }
                if (remaining <= 1 || stopped) {
                    polling.finished().countDown();
                    return;
                }
                Long cursor = next;
                if (outcome == Outcome.OK && !connection.isClosed()) {
                    poll(polling, connection, index, cursor, remaining - 1);
                } else {
                    // Refused, failed or closed by the server: back off a little instead of hammering the service,
                    // then poll again on this connection, or on a new one if it is gone.
                    retries.schedule(() -> {
                        if (connection.isClosed()) {
                            reconnectThenPoll(polling, index, cursor, remaining - 1);
                        } else {
                            poll(polling, connection, index, cursor, remaining - 1);
                        }
                    }, RETRY_DELAY.toMillis(), TimeUnit.MILLISECONDS);
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

    /** What the clients' sockets did: open when polling began, opened in all, open at most at once, failed connects, reconnects. */
    public ClientConnections connections() {
        return new ClientConnections(clients, connectedAtStart, statistics.getConnectionsTotal(), statistics.getConnectionsMax(),
                connectFailures.get(), reconnects.get());
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
