package com.example.threading.longpoll;

import java.util.Collection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.util.component.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers every parked poll as soon as the server begins to stop. Jetty's graceful shutdown waits up to
 * {@code server.shutdownGracePeriod} for in-flight requests, and a parked poll is in flight until its timeout:
 * answered here (503, {@code Retry-After: 0}: another instance can take it), the polls leave at once and shutdown is
 * not held up. Runs in {@code lifeCycleStopping}, before Jetty closes connectors, so every client gets a full
 * response; it waits up to {@code timeoutMs} for those answers to be written.
 *
 * <p>Thread-safety: {@link #answerAll} is called once, by the thread that stops the server; the answers complete on
 * Jetty's threads, each counted down once through its poll's watcher.
 */
final class StopAnsweringParkedPolls implements LifeCycle.Listener {

    private static final Logger LOG = LoggerFactory.getLogger(StopAnsweringParkedPolls.class);

    private final EventHub hub;
    private final JsonResponses json;
    private final LongPollMetrics metrics;
    private final long timeoutMs;

    StopAnsweringParkedPolls(EventHub hub, JsonResponses json, LongPollMetrics metrics, long timeoutMs) {
        this.hub = hub;
        this.json = json;
        this.metrics = metrics;
        this.timeoutMs = timeoutMs;
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
     * Closes the hub (new polls and blocking waiters get the same 503) and answers every parked poll, waiting up to
     * {@code timeoutMs} for the answers to be complete. Returns how many parked polls this answered.
     */
    int answerAll() throws InterruptedException {
        Collection<ParkedPoll> parked = hub.closeAndTakeParked();
        CountDownLatch complete = new CountDownLatch(parked.size());
        AtomicInteger answered = new AtomicInteger();
        ParkedPoll.Watcher shutdown = byShutdown -> {
            if (byShutdown) {
                answered.incrementAndGet();
                metrics.shutdownAnswers.mark();
            }
            complete.countDown();
        };
        byte[] body = json.error(503, EventHub.CLOSED_MESSAGE);
        for (ParkedPoll poll : parked) {
            if (!poll.watch(shutdown)) {
                complete.countDown(); // already complete
                continue;
            }
            NonBlockingAnswer.send(poll.context(), 503, EventHub.CLOSED_HEADERS, body, () -> hub.claimTaken(poll, shutdown),
                    metrics.disconnects);
        }
        if (!complete.await(timeoutMs, TimeUnit.MILLISECONDS)) {
            LOG.warn("{} of {} parked polls not complete within {} ms of shutdown", complete.getCount(), parked.size(), timeoutMs);
        }
        return answered.get();
    }
}
