package com.example.threading.load.engine.traffic;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.client.WebSocketClient;

/**
 * The topics traffic's members over WebSockets: each client one {@link SocketMember} holding one socket of
 * {@code GET /events/ws} that reads all its rooms, on Jetty's own WebSocket client (the tool writes no WebSocket framing
 * itself): one HTTP/1.1 connection per socket, read by Jetty's selector and pool threads without a thread per socket. A
 * socket the server or the network ends is counted by kind and opened again from its last position.
 *
 * <p>Thread-safety: the scenario's thread calls {@link #open}, {@link #drain}, {@link #close}, then {@link #counts} and
 * {@link #missed}, in this order. Each socket's messages arrive on Jetty's threads, one at a time and in order; a member's
 * next socket is opened only from its last one's end (on a Jetty thread or the timer's), so each member's ledgers are
 * written by one thread at a time, each socket's end happening-before the next one's open. The counts are atomic; the
 * cursors the drain reads are atomic per member. {@link #close} stops every member and waits for the latch each member
 * counts down after its last socket's last callback, so the caller then reads ledgers no thread writes any more.
 */
final class SocketMembers implements AutoCloseable {

    /** Sockets opened at once before waiting for them (a burst of thousands of connects overflows the accept queue). */
    private static final int OPENING_AT_ONCE = 500;
    /** Longest wait, after the drain, for every socket's close to come back. */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(15);

    /** What every member of a run shares: the plan, the client, the timer of the pauses, the counts and the latch. */
    record Shared(TopicsTraffic.Plan plan, WebSocketClient client, ScheduledExecutorService timers, Counts counts, CountDownLatch done) {
    }

    /** Counts shared by every member's sockets. */
    static final class Counts {
        final AtomicLong connects = new AtomicLong();
        final AtomicLong failedConnects = new AtomicLong();
        final AtomicLong missed = new AtomicLong();
        final AtomicLong otherMessages = new AtomicLong();
        private final Map<String, AtomicLong> ends = new ConcurrentHashMap<>();

        /** A socket the server or the network ended, as {@code kind}. */
        void ended(String kind) {
            ends.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
        }
    }

    private final TopicsTraffic.Plan plan;
    private final ScheduledExecutorService timers;
    private final HttpClient http = new HttpClient();
    private final WebSocketClient client = new WebSocketClient(http);
    private final Counts counts = new Counts();
    private final CountDownLatch done;
    private final List<SocketMember> members = new ArrayList<>();

    /** The members of {@code plan}, their pauses between sockets on {@code timers}; nothing starts before {@link #open}. */
    SocketMembers(TopicsTraffic.Plan plan, ScheduledExecutorService timers) {
        this.plan = plan;
        this.timers = timers;
        this.done = new CountDownLatch(plan.clients());
    }

    /**
     * Starts the client and opens every member's first socket ({@value #OPENING_AT_ONCE} connecting at once); returns the
     * members once each has had a socket open, or throws when some have not by {@code deadlineNanos}.
     */
    List<SocketMember> open(long deadlineNanos) throws Exception {
        http.setMaxConnectionsPerDestination(plan.clients() + 16);
        http.setConnectTimeout(10_000);
        client.setIdleTimeout(Duration.ofMinutes(10)); // the server's heartbeats keep a quiet socket alive; the tool never gives up on one
        client.start();
        Shared shared = new Shared(plan, client, timers, counts, done);
        for (int c = 0; c < plan.clients(); c++) {
            members.add(new SocketMember(c, TopicsTraffic.roomsOf(c, plan.rooms(), plan.roomsPerClient()), shared));
        }
        for (int from = 0; from < members.size(); from += OPENING_AT_ONCE) {
            List<CompletableFuture<Session>> connecting = new ArrayList<>();
            for (SocketMember member : members.subList(from, Math.min(members.size(), from + OPENING_AT_ONCE))) {
                connecting.add(member.connect());
            }
            for (CompletableFuture<Session> upgrade : connecting) {
                try {
                    upgrade.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (ExecutionException | TimeoutException failed) {
                    // counted by the member, which tries again on its own until the deadline below
                }
            }
        }
        while (System.nanoTime() < deadlineNanos && !members.stream().allMatch(SocketMember::everOpened)) {
            Thread.sleep(50);
        }
        long open = members.stream().filter(SocketMember::everOpened).count();
        if (open < members.size()) {
            throw new IllegalStateException("only " + open + " of " + members.size() + " sockets opened (" + counts.failedConnects.get()
                    + " connects failed)");
        }
        return List.copyOf(members);
    }

    /** Waits until every member has read each of its rooms up to {@code newestPublished}, or until {@code deadlineNanos}. */
    void drain(AtomicLongArray newestPublished, long deadlineNanos) throws InterruptedException {
        while (System.nanoTime() < deadlineNanos && !members.stream().allMatch(member -> member.caughtUp(newestPublished))) {
            Thread.sleep(10);
        }
    }

    /** What the sockets did. */
    TopicsTraffic.SocketCounts counts() {
        Map<String, Long> ends = new TreeMap<>();
        counts.ends.forEach((kind, count) -> ends.put(kind, count.get()));
        return new TopicsTraffic.SocketCounts(counts.connects.get(), counts.failedConnects.get(), ends, counts.otherMessages.get());
    }

    /** {@code missed} messages read. */
    long missed() {
        return counts.missed.get();
    }

    /** Stops every member, waits for their sockets' ends, and stops the client; throws when a socket did not end in time. */
    @Override
    public void close() throws Exception {
        try {
            members.forEach(SocketMember::stop);
            for (int i = members.size(); i < plan.clients(); i++) {
                done.countDown(); // members never made (open failed part-way)
            }
            if (!done.await(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(done.getCount() + " sockets still open " + CLOSE_TIMEOUT.toSeconds() + " s after the drain: the tool is stuck");
            }
        } finally {
            client.stop();
            http.stop();
        }
    }
}
