package com.example.threading.load.engine.traffic;

import com.example.threading.load.engine.http.SimpleHttp;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Events POSTed to one topic ({@code POST /events?topic=T}, JSON {@code {"n":k}}) at a fixed rate from one daemon thread,
 * each answered before the next is sent (a late answer delays the next publish, never piles them up). It keeps when
 * each publish was answered 2xx, so a scenario can count the publishes within a stretch and check the longest wait
 * between two (a parked poll waits at most that long).
 *
 * <p>Thread-safety: the scenario's thread starts and closes it and reads the counts; the publisher's own thread
 * publishes and records; the records are guarded by the publisher's lock.
 */
public final class EventPublisher implements AutoCloseable {

    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(5);

    private final URI topic;
    private final SimpleHttp http = SimpleHttp.http1();
    private final ScheduledExecutorService thread = new ScheduledThreadPoolExecutor(1, DaemonThreads.named("event-publisher"));
    private final List<Long> answeredNanos = new ArrayList<>();
    private final long startNanos = System.nanoTime();
    private long sent;
    private long failures;
    private String lastFailure = "";

    private EventPublisher(URI topic) {
        this.topic = topic;
    }

    /** Starts publishing to {@code topic} (the full URL, e.g. http://127.0.0.1:8080/events?topic=cost), {@code perSecond} times a second. */
    public static EventPublisher start(URI topic, double perSecond) {
        if (!(perSecond > 0)) {
            throw new IllegalArgumentException("events per second must be above 0, not " + perSecond);
        }
        EventPublisher publisher = new EventPublisher(topic);
        long period = Math.max(1, Math.round(TimeUnit.SECONDS.toNanos(1) / perSecond));
        publisher.thread.scheduleAtFixedRate(publisher::publishOne, 0, period, TimeUnit.NANOSECONDS);
        return publisher;
    }

    private void publishOne() {
        long n;
        synchronized (this) {
            n = ++sent;
        }
        try {
            SimpleHttp.Answer answer = http.postJson(topic, "{\"n\":" + n + "}", ANSWER_TIMEOUT);
            long at = System.nanoTime();
            synchronized (this) {
                if (answer.status() >= 200 && answer.status() < 300) {
                    answeredNanos.add(at);
                } else {
                    failures++;
                    lastFailure = answer.status() == 0 ? answer.failure() : "status " + answer.status() + " " + answer.body();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Publishes answered 2xx so far. */
    public synchronized long published() {
        return answeredNanos.size();
    }

    /** Publishes answered 2xx between two {@link System#nanoTime()} readings. */
    public synchronized long publishedBetween(long fromNanos, long toNanos) {
        return answeredNanos.stream().filter(at -> at >= fromNanos && at <= toNanos).count();
    }

    /** Publishes that failed or were answered other than 2xx, so far. */
    public synchronized long failures() {
        return failures;
    }

    /** What the last failed publish got ("" when none failed). */
    public synchronized String lastFailure() {
        return lastFailure;
    }

    /** The longest time, from the start until now, without a publish answered 2xx: the longest a poll parked meanwhile can have waited. */
    public synchronized Duration longestGap() {
        long longest = 0;
        long previous = startNanos;
        for (long at : answeredNanos) {
            longest = Math.max(longest, at - previous);
            previous = at;
        }
        return Duration.ofNanos(Math.max(longest, System.nanoTime() - previous));
    }

    /** Waits up to {@code timeout} until at least {@code count} publishes have been answered 2xx; whether they were. */
    public boolean awaitPublished(long count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (published() < count) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    /** Stops publishing (a publish in flight is abandoned) and closes the client. */
    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(ANSWER_TIMEOUT.toSeconds() + 1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            http.close();
        }
    }
}
