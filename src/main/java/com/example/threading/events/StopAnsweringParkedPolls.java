package com.example.threading.events;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.example.threading.events.hub.Answer;
import com.example.threading.events.hub.EventHub;
import com.example.threading.events.hub.ParkedPoll;
import com.example.threading.events.hub.ShutdownSpread;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.util.component.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers every parked poll once the server begins to stop. Jetty's graceful shutdown waits up to
 * {@code server.shutdownGracePeriod} for in-flight requests, and a parked poll is in flight until its timeout:
 * answered here ({@code 503}, {@code Connection: close}: another instance can take it), the polls leave and shutdown is
 * not held up. The answers are spread ({@link ShutdownSpread}): over {@code events.shutdownSpread}, with rising
 * {@code Retry-After}, so the clients do not reconnect all at once. Runs in {@code lifeCycleStopping}, before Jetty
 * closes connectors, so every client gets a full response; it waits up to {@code timeoutMs} in all (the spread
 * included) for those answers to be written: the stopping thread sends them (sleeping between the spread's slices) and
 * counts them down as each poll's watcher reports its completion from a Jetty thread.
 */
final class StopAnsweringParkedPolls implements LifeCycle.Listener {

    private static final Logger LOG = LoggerFactory.getLogger(StopAnsweringParkedPolls.class);

    private final EventHub hub;
    private final ShutdownSpread spread;
    private final long timeoutMs;
    private final Meter answeredHere;
    private final Meter answeredOtherwise;
    private final Meter unfinished;

    /**
     * Answers {@code hub}'s parked polls over {@code spread}, waiting up to {@code timeoutMs} in all; counts in
     * {@code events.shutdown-answers}, {@code events.shutdown.answered-otherwise} (a poll's deadline or failure came
     * before its slice) and {@code events.shutdown.unfinished} (answers not complete in time).
     */
    StopAnsweringParkedPolls(EventHub hub, ShutdownSpread spread, long timeoutMs, MetricRegistry metrics) {
        this.hub = hub;
        this.spread = spread;
        this.timeoutMs = timeoutMs;
        this.answeredHere = metrics.meter("events.shutdown-answers");
        this.answeredOtherwise = metrics.meter("events.shutdown.answered-otherwise");
        this.unfinished = metrics.meter("events.shutdown.unfinished");
    }

    @Override
    public void lifeCycleStopping(LifeCycle event) {
        try {
            LOG.info("server stopping: answered {} parked polls with 503", answerAll());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Closes the hub (new polls and blocking waiters get a 503 too) and answers every parked poll over the spread,
     * waiting up to {@code timeoutMs} in all for the answers to be complete. Returns how many parked polls this answered.
     */
    int answerAll() throws InterruptedException {
        List<ParkedPoll> parked = List.copyOf(hub.closeAndTakeParked());
        long startNanos = System.nanoTime();
        int count = parked.size();
        CountDownLatch complete = new CountDownLatch(count);
        AtomicInteger answered = new AtomicInteger();
        ParkedPoll.Watcher shutdown = byShutdown -> {
            if (byShutdown) {
                answered.incrementAndGet();
                answeredHere.mark();
            } else {
                answeredOtherwise.mark(); // its deadline or a failure came before its slice
            }
            complete.countDown();
        };
        for (int k = 0; k < count; k++) {
            long waitNanos = startNanos + TimeUnit.MILLISECONDS.toNanos(spread.dueMs(k, count)) - System.nanoTime();
            if (waitNanos > 0) {
                TimeUnit.NANOSECONDS.sleep(waitNanos);
            }
            ParkedPoll poll = parked.get(k);
            if (!poll.watch(shutdown)) {
                answeredOtherwise.mark(); // already complete
                complete.countDown();
                continue;
            }
            poll.delivery().offer(new Answer.Closing(spread.retryAfter(k, count)), () -> hub.claim(poll, shutdown));
        }
        long leftNanos = startNanos + TimeUnit.MILLISECONDS.toNanos(timeoutMs) - System.nanoTime();
        if (!complete.await(Math.max(0, leftNanos), TimeUnit.NANOSECONDS)) {
            unfinished.mark(complete.getCount());
            LOG.warn("{} of {} parked polls not complete within {} ms of shutdown", complete.getCount(), count, timeoutMs);
        }
        return answered.get();
    }
}
