package com.example.threading.load.engine.traffic;

import com.example.threading.load.service.topology.HaproxyStats;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeoutException;

/**
 * Watches, every 100 ms, what a load balancer thinks of its servers (from its stats socket: in or out of rotation) and
 * what each server says of itself (its readiness endpoint: ready, not ready, unreachable), and keeps every change with
 * its time, so a scenario can ask how long after a fault a server went out, and how long after it recovered it came
 * back.
 *
 * <p>Thread-safety: one daemon thread reads the balancer and one per server probes readiness; they append changes
 * under this object's lock, which every query takes too. {@link #close} stops and joins the threads.
 */
public final class RotationWatch implements AutoCloseable {

    /** Where a state comes from. */
    public enum Source {
        /** The balancer's view: {@link #IN} or {@link #OUT} of rotation. */
        BALANCER,
        /** The server's own readiness endpoint: {@link #READY}, {@link #NOT_READY} or {@link #UNREACHABLE}. */
        READINESS
    }

    /** A state of a server in the balancer's view. */
    public static final String IN = "in rotation";
    /** The other state in the balancer's view. */
    public static final String OUT = "out of rotation";
    /** Readiness answered 200. */
    public static final String READY = "ready";
    /** Readiness answered another status. */
    public static final String NOT_READY = "not ready";
    /** Readiness did not answer (connection refused, timeout). */
    public static final String UNREACHABLE = "unreachable";

    /** One change: {@code server}'s state from {@code source} became {@code state} at {@code atNanos} (System.nanoTime). */
    public record Change(String server, Source source, String state, long atNanos) {
    }

    private static final long PERIOD_MS = 100;

    private final List<Change> changes = new ArrayList<>();
    private final Map<String, String> current = new HashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    private RotationWatch() {
    }

    /** Starts watching the balancer at {@code statsSocket} and each server's readiness URI ({@code server name → URI}). */
    public static RotationWatch start(Path statsSocket, Map<String, URI> readiness) {
        RotationWatch watch = new RotationWatch();
        watch.spawn("rotation-balancer", () -> watch.readBalancer(statsSocket));
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
        readiness.forEach((server, uri) -> watch.spawn("rotation-ready-" + server, () -> watch.probe(client, server, uri)));
        return watch;
    }

    /** The latest state of {@code server} from {@code source}, or "" before the first sample. */
    public synchronized String state(String server, Source source) {
        return current.getOrDefault(key(server, source), "");
    }

    /** When {@code server}'s state from {@code source} first became {@code state} at or after {@code fromNanos}. */
    public synchronized OptionalLong firstChange(String server, Source source, String state, long fromNanos) {
        // Readiness changes are stamped when their probe was sent, so the list is not strictly in time order.
        return changes.stream().filter(c -> c.atNanos() >= fromNanos && c.server().equals(server) && c.source() == source
                && c.state().equals(state)).mapToLong(Change::atNanos).min();
    }

    /** Waits until {@code server}'s state from {@code source} is {@code state}. */
    public void await(String server, Source source, String state, Duration timeout) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!state(server, source).equals(state)) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException(server + " not " + state + " (" + source + ") within " + timeout.toSeconds() + " s; now: "
                        + state(server, source));
            }
            Thread.sleep(PERIOD_MS / 2);
        }
    }

    /** Every change so far, in order. */
    public synchronized List<Change> changes() {
        return List.copyOf(changes);
    }

    /** Stops the sampling threads. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        for (Thread thread : threads) {
            thread.interrupt();
            thread.join(5_000);
        }
    }

    private void readBalancer(Path statsSocket) {
        try {
            for (HaproxyStats.ServerState server : HaproxyStats.read(statsSocket)) {
                record(server.server(), Source.BALANCER, server.inRotation() ? IN : OUT);
            }
        } catch (IOException e) {
            // The balancer is restarting or busy: the next sample tells.
        }
    }

    private void probe(HttpClient client, String server, URI uri) {
        long sentAt = System.nanoTime();
        String state;
        try {
            int status = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(1)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
            state = status == 200 ? READY : NOT_READY;
        } catch (IOException e) {
            state = UNREACHABLE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        // Stamped when the probe was sent: the state held then (an unanswered probe only tells once its timeout ends).
        record(server, Source.READINESS, state, sentAt);
    }

    private void record(String server, Source source, String state) {
        record(server, source, state, System.nanoTime());
    }

    private synchronized void record(String server, Source source, String state, long atNanos) {
        String previous = current.put(key(server, source), state);
        if (!state.equals(previous)) {
            changes.add(new Change(server, source, state, atNanos));
        }
    }

    private void spawn(String name, Runnable sample) {
        Thread thread = new Thread(() -> {
            while (running) {
                long next = System.nanoTime() + PERIOD_MS * 1_000_000;
                sample.run();
                long sleep = (next - System.nanoTime()) / 1_000_000;
                if (sleep > 0) {
                    try {
                        Thread.sleep(sleep);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }, name);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    private static String key(String server, Source source) {
        return server + "/" + source;
    }
}
