package com.example.threading.events.hub;

import com.codahale.metrics.Meter;
import com.example.threading.events.history.EventBatch;
import com.example.threading.events.history.PollAnswer;
import com.example.threading.events.history.TopicCursor;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The blocking twin's waiting: a thread of {@code GET /events/blocking} sleeps here until an event after one of its
 * cursors, its timeout, or shutdown, and holds its (Jetty worker) thread all that time. It reads the hub's topics and
 * sleeps on a condition of the hub's lock, so it sees exactly the events the parked polls see. Every event wakes every
 * waiter, which looks at its own topics again: the price of one condition for any mix of topics, in the twin that
 * exists to be compared with the async version.
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>Waiters: any number of threads may call {@link #await} at once; each takes the lock, and releases it
 *       while it sleeps.</li>
 *   <li>The hub: {@link #signalNews} (after appending an event) and {@link #close} must be called with the lock
 *       held, in the same hold that changed a history or closed the hub, and check it
 *       ({@link IllegalStateException}): a waiter checks the histories and goes to sleep in one hold of the lock,
 *       so a change and its signal made in one hold can never fall between the two. Everything written in that
 *       hold happens-before the woken waiter reads it.</li>
 *   <li>Metrics: {@link #waiting} may be read from any thread (an atomic counter, current but not synchronized
 *       with the lock).</li>
 * </ul>
 * {@code BlockingWaitsTest} checks it on real threads: waiters woken by news or by the close, timed out, counted, and
 * signals refused without the lock.
 */
public final class BlockingWaits {

    private final ReentrantLock lock;
    private final Condition newEventOrClosed;
    private final Function<String, Topic> topics;
    private final Meter timeouts;
    private final Meter missed;
    private final AtomicInteger waiting = new AtomicInteger();
    @GuardedBy("lock")
    private boolean closed;

    /**
     * Waits on the topics {@code topics} finds (or creates; null when it would be one too many), which {@code lock}
     * guards; counts timeouts and missed cursors in the given meters.
     */
    BlockingWaits(ReentrantLock lock, Function<String, Topic> topics, Meter timeouts, Meter missed) {
        this.lock = lock;
        this.newEventOrClosed = lock.newCondition();
        this.topics = topics;
        this.timeouts = timeouts;
        this.missed = missed;
    }

    /** Threads waiting in {@link #await} right now. */
    int waiting() {
        return waiting.get();
    }

    /**
     * Blocks the calling thread until an event after one of the cursors {@code asked} (a null cursor: the next event),
     * the timeout, or {@link #close}; a cursor of another epoch is answered at once ({@code missed}). Returns the answer ({@link PollAnswer}), or {@link Outcome#TIMED_OUT},
     * {@link Outcome#CLOSED}, {@link Outcome#TOO_MANY_TOPICS}.
     */
    public Outcome await(List<TopicCursor> asked, long timeoutMs) throws InterruptedException {
        lock.lock();
        waiting.incrementAndGet();
        List<Topic> waitedOn = new ArrayList<>(asked.size());
        try {
            Map<String, Long> cursors = new LinkedHashMap<>();
            Map<String, String> epochs = new LinkedHashMap<>(); // each ring's epoch when the wait began
            Map<String, EventBatch> otherEpoch = new LinkedHashMap<>();
            for (TopicCursor topicCursor : asked) {
                Topic topic = topics.apply(topicCursor.topic());
                if (topic == null) {
                    return Outcome.TOO_MANY_TOPICS;
                }
                topic.blockingWaiters(1); // a topic a thread waits on is not idle
                waitedOn.add(topic);
                epochs.put(topicCursor.topic(), topic.history().epoch());
                if (!topic.history().sameEpoch(topicCursor)) {
                    otherEpoch.put(topicCursor.topic(), topic.history().epochChanged()); // answered at once, missed
                    cursors.put(topicCursor.topic(), topic.history().lastId());
                } else {
                    cursors.put(topicCursor.topic(), topicCursor.after() == null ? topic.history().lastId() : topicCursor.after());
                }
            }
            long remainingNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            Map<String, EventBatch> news = newsAfter(waitedOn, cursors, epochs);
            news.putAll(otherEpoch);
            while (news.isEmpty()) {
                if (closed) {
                    return Outcome.CLOSED;
                }
                if (remainingNanos <= 0) {
                    timeouts.mark();
                    return Outcome.TIMED_OUT;
                }
                remainingNanos = newEventOrClosed.awaitNanos(remainingNanos);
                news = newsAfter(waitedOn, cursors, epochs);
            }
            if (news.values().stream().anyMatch(EventBatch::missed)) {
                missed.mark();
            }
            return new Outcome(PollAnswer.of(asked, cursors, news));
        } finally {
            waitedOn.forEach(topic -> topic.blockingWaiters(-1));
            waiting.decrementAndGet();
            lock.unlock();
        }
    }

    /**
     * What the waited-on topics hold after the cursors; a ring that started over in another epoch since the wait began
     * (its shared stream was recreated, and the ids went on) answers everything it holds, {@code missed}, as the hub
     * answers its parked polls: the old cursor names no position in the new history.
     */
    private static Map<String, EventBatch> newsAfter(List<Topic> waitedOn, Map<String, Long> cursors,
                                                     Map<String, String> epochs) {
        Map<String, EventBatch> news = new LinkedHashMap<>();
        for (Topic topic : waitedOn) {
            long cursor = cursors.get(topic.name());
            if (topic.history().startedOverSince(epochs.get(topic.name()))) {
                news.put(topic.name(), topic.history().startedOver());
            } else if (topic.history().hasNewsFor(cursor)) {
                news.put(topic.name(), topic.history().after(cursor));
            }
        }
        return news;
    }

    /** Wakes every waiter to look at the histories again; the caller holds the lock and has just appended an event. */
    void signalNews() {
        checkLocked();
        newEventOrClosed.signalAll();
    }

    /**
     * Wakes every waiter; from now on a wait without news ends at once with {@link Outcome#CLOSED}. The caller
     * holds the lock.
     */
    // The hub's lock, held by the hub: the checker cannot follow a lock across classes (checkLocked does at run time).
    @SuppressWarnings("GuardedBy")
    void close() {
        checkLocked();
        closed = true;
        newEventOrClosed.signalAll();
    }

    private void checkLocked() {
        if (!lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("blocking waiters are signalled only while holding the hub's lock");
        }
    }

    /** How a blocking wait ended: with an answer, or as one of the three constants. */
    public static final class Outcome {
        public static final Outcome TIMED_OUT = new Outcome(null);
        public static final Outcome CLOSED = new Outcome(null);
        public static final Outcome TOO_MANY_TOPICS = new Outcome(null);

        /** An {@link EventBatch} or a {@link com.example.threading.events.history.TopicsBatch}, for an outcome with news. */
        public final Object answer;

        private Outcome(Object answer) {
            this.answer = answer;
        }
    }
}
