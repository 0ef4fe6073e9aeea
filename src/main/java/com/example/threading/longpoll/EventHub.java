package com.example.threading.longpoll;

import jakarta.servlet.AsyncContext;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the event history and the parked polls, and answers every parked poll in one batch per event.
 *
 * <p>On each event (delivered by the {@link EventSource}) the hub appends it to the ring and takes out the parked
 * polls it answers ({@link ParkedPolls}) under its lock, then hands that batch to a single dispatcher thread. The
 * dispatcher only queues a {@link NonBlockingAnswer} per poll (a write listener), so a slow reader cannot hold it up;
 * Jetty's threads do the writes. A poll is claimed when its write starts, so an answer, the poll's deadline
 * ({@link PollDeadlines}), a failure and the shutdown never collide. A poll whose cursor already has news is answered
 * at once without parking. The blocking twin's threads wait in {@link #blockingWaits()}, on the same lock and history.
 *
 * <p>With an {@link EventArchive} (a stream shared by several instances), a cursor the ring cannot answer goes to
 * {@link ArchivedCursors} first; a cursor above the newest event read here parks until the reader gets past it.
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>The source calls {@link #accept} from one thread at a time ({@link EventSource}'s contract); the
 *       append, the taking of the batch and the wake-up of blocking waiters happen in one hold of {@code lock},
 *       so a poll is either in the batch or sees the event in the history.</li>
 *   <li>Jetty workers call {@link #poll} concurrently; the cursor check, the capacity check and the parking
 *       happen in one hold of {@code lock}. An archive read completes on the archive's thread, which then answers
 *       or parks the poll the same way (a fresh hold of {@code lock}).</li>
 *   <li>One scheduled thread calls {@link #expireDue} every {@link #DEADLINE_TICK_MS}; it answers the polls whose
 *       deadline passed through {@link #timedOut}, claiming them like any other answerer.</li>
 *   <li>Jetty's callback threads call {@link #failed} and {@link #completed} (the hub is every poll's
 *       {@link ParkedPoll.ParkingLot}). Who answers a poll is decided by {@link ParkedPoll#claim} outside the lock;
 *       answers are written outside the lock.</li>
 *   <li>The stopping thread calls {@link #closeAndTakeParked} once ({@link StopAnsweringParkedPolls} answers them).</li>
 *   <li>Metrics read {@link #parkedCount} (an atomic, without the lock) and {@link #lastId} (under it) from any
 *       thread.</li>
 * </ul>
 * {@code lock} guards the history, the parked polls and {@code closed}.
 */
final class EventHub implements Consumer<Event>, ParkedPoll.ParkingLot {

    private static final Logger LOG = LoggerFactory.getLogger(EventHub.class);

    /** How often {@link #expireDue} must be called, and so how late (at most) a poll's timeout is answered. */
    static final long DEADLINE_TICK_MS = 100;

    /** The answer to a poll while the server stops; another instance can take it. */
    static final Map<String, String> CLOSED_HEADERS = Map.of("Retry-After", "0", "Connection", "close");
    static final String CLOSED_MESSAGE = "server is stopping, poll again";

    /** The hub's own claims on a poll, as opposed to those of an event's batch or the shutdown. */
    private enum OwnAnswer implements ParkedPoll.Answerer {
        /** The poll's cursor had news, the hub was full or closed: answered without parking. */
        AT_ONCE,
        /** The poll's deadline passed (the hub's sweep, or a container timeout where one is set): 204. */
        TIMEOUT,
        /** The request failed: completed without an answer. */
        FAILURE
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final EventHistory history;
    private final BlockingWaits blockingWaits;
    private final ParkedPolls parked = new ParkedPolls();
    private boolean closed;

    private final AtomicInteger parkedCount = new AtomicInteger();
    private final int maxParked;
    private final long retryAfterSeconds;
    private final Executor dispatcher;
    private final JsonResponses json;
    private final LongPollMetrics metrics;
    private final ArchivedCursors archived;
    private final LongSupplier nanoClock;
    private final PollDeadlines deadlines;

    /** A hub whose ring is all the history there is (the in-process stream), on the system's clock. */
    EventHub(int historySize, int maxParked, long retryAfterSeconds, Executor dispatcher, JsonResponses json,
             LongPollMetrics metrics) {
        this(historySize, maxParked, retryAfterSeconds, dispatcher, json, metrics, null, System::nanoTime);
    }

    /**
     * A hub that asks {@code archive} (a shared stream's log; null: none) for the cursors its ring cannot answer, and
     * reads deadlines and batch times off {@code nanoClock} (e.g. {@code System::nanoTime}).
     */
    EventHub(int historySize, int maxParked, long retryAfterSeconds, Executor dispatcher, JsonResponses json,
             LongPollMetrics metrics, EventArchive archive, LongSupplier nanoClock) {
        this.history = new EventHistory(historySize, lock);
        this.blockingWaits = new BlockingWaits(lock, history, metrics.blockingTimeouts, metrics.missed);
        this.maxParked = maxParked;
        this.retryAfterSeconds = retryAfterSeconds;
        this.dispatcher = dispatcher;
        this.json = json;
        this.metrics = metrics;
        this.archived = archive == null ? null : new ArchivedCursors(archive, historySize, this::lastId);
        this.nanoClock = nanoClock;
        this.deadlines = new PollDeadlines(DEADLINE_TICK_MS, nanoClock);
    }

    /** Requests parked on {@code GET /events} and not yet claimed for an answer. */
    int parkedCount() {
        return parkedCount.get();
    }

    /** Where the threads of {@code GET /events/blocking} wait, on this hub's history. */
    BlockingWaits blockingWaits() {
        return blockingWaits;
    }

    /** Id of the newest event, 0 before the first. */
    long lastId() {
        lock.lock();
        try {
            return history.lastId();
        } finally {
            lock.unlock();
        }
    }

    /** Receives the next event from the source: records it and answers the polls parked until now. */
    @Override
    public void accept(Event event) {
        long arrivedNanos = nanoClock.getAsLong();
        Collection<ParkedPoll> batch;
        lock.lock();
        try {
            if (!history.append(event)) {
                return; // a redelivered or out-of-order event: the cursor already covers it
            }
            batch = parked.takeBefore(event.id());
            blockingWaits.signalNews();
        } finally {
            lock.unlock();
        }
        metrics.published.mark();
        metrics.batchSize.update(batch.size());
        if (!batch.isEmpty()) {
            Runnable answer = () -> answerBatch(batch, arrivedNanos);
            try {
                dispatcher.execute(answer);
            } catch (RejectedExecutionException stopping) {
                answer.run();
            }
        }
    }

    /**
     * Answers the poll at once if its cursor has news, rejects it if the hub is full or closed, or parks it
     * until the next event or {@code timeoutMs} (then 204). {@code requestedCursor} null means "the next event".
     * The async context must be started; its container timeout should be 0 (none): the hub's own deadlines answer.
     */
    void poll(AsyncContext context, Long requestedCursor, long timeoutMs) {
        ParkedPoll poll = new ParkedPoll(context, this);
        context.addListener(poll);
        deadlines.add(poll, timeoutMs);
        place(poll, requestedCursor, archived != null);
    }

    /**
     * Answers 204 to every poll whose timeout has passed and that nobody has answered; called every
     * {@link #DEADLINE_TICK_MS} by one scheduled thread. Returns how many deadlines passed.
     */
    int expireDue() {
        return deadlines.expireDue(this::timedOut);
    }

    /**
     * Answers, rejects or parks {@code poll}. {@code mayAskArchive}: whether a cursor the ring cannot answer goes to
     * the archive first (false once it has been asked, or without one).
     */
    private void place(ParkedPoll poll, Long requestedCursor, boolean mayAskArchive) {
        EventBatch news = null;
        boolean askArchive = false;
        boolean full = false;
        boolean wasClosed;
        lock.lock();
        try {
            wasClosed = closed;
            if (!wasClosed) {
                if (requestedCursor == null || !history.hasNewsFor(requestedCursor)) {
                    full = !park(poll, requestedCursor == null ? history.lastId() : requestedCursor);
                } else if (archived == null || history.covers(requestedCursor)) {
                    news = history.after(requestedCursor);
                } else if (mayAskArchive) {
                    askArchive = true;
                } else if (requestedCursor > history.lastId()) {
                    full = !park(poll, requestedCursor); // ahead of the reader: parked until it gets past the cursor
                } else {
                    news = history.after(requestedCursor); // older than ring and archive: missed
                }
            }
        } finally {
            lock.unlock();
        }
        if (askArchive) {
            archived.resolve(requestedCursor).thenAccept(resolution -> placeResolved(poll, requestedCursor, resolution));
        } else if (wasClosed) {
            NonBlockingAnswer.send(poll.context(), 503, CLOSED_HEADERS, json.error(503, CLOSED_MESSAGE),
                    () -> claimAtOnce(poll), metrics.disconnects);
        } else if (full) {
            metrics.rejected.mark();
            NonBlockingAnswer.send(poll.context(), 503, Map.of("Retry-After", Long.toString(retryAfterSeconds)),
                    json.error(503, "too many parked polls (" + maxParked + "), retry later"), () -> claimAtOnce(poll),
                    metrics.disconnects);
        } else if (news != null) {
            answerAtOnce(poll, news);
        }
    }

    /** Acts on what the archive said about a cursor the ring could not answer; on the archive's thread. */
    private void placeResolved(ParkedPoll poll, long cursor, ArchivedCursors.Resolution resolution) {
        switch (resolution.kind()) {
            case NEWS -> answerAtOnce(poll, resolution.news());
            case WAIT -> place(poll, cursor, false);
            case RING -> answerAtOnce(poll, historyAfter(cursor));
            case UNAVAILABLE -> {
                if (cursor > lastId()) {
                    place(poll, cursor, false); // ahead of this instance: the reader will bring the events
                } else {
                    NonBlockingAnswer.send(poll.context(), 503, Map.of("Retry-After", Long.toString(retryAfterSeconds)),
                            json.error(503, "the event history is unavailable, retry later"), () -> claimAtOnce(poll),
                            metrics.disconnects);
                }
            }
            default -> throw new IllegalStateException("unknown resolution " + resolution.kind());
        }
    }

    /** Parks {@code poll} after {@code cursor} (with the lock held); false when the hub is full. */
    private boolean park(ParkedPoll poll, long cursor) {
        if (parkedCount.get() >= maxParked) {
            return false;
        }
        if (poll.markParked(cursor)) { // false: its deadline or a failure claimed it meanwhile; nothing to park
            parked.add(poll);
            parkedCount.incrementAndGet();
        }
        return true;
    }

    private void answerAtOnce(ParkedPoll poll, EventBatch news) {
        metrics.answeredAtOnce.mark();
        if (news.missed()) {
            metrics.missed.mark();
        }
        NonBlockingAnswer.send(poll.context(), 200, Map.of(), json.bytes(news), () -> claimAtOnce(poll), metrics.disconnects);
    }

    /** Claims a poll for an answer of the hub's own; one that was parked leaves the count here. */
    private boolean claimAtOnce(ParkedPoll poll) {
        return claimTaken(poll, OwnAnswer.AT_ONCE);
    }

    /** Claims a poll taken out of the parked polls (by an event's batch or the shutdown) for {@code answerer}. */
    boolean claimTaken(ParkedPoll poll, ParkedPoll.Answerer answerer) {
        ParkedPoll.Claim claim = poll.claim(answerer);
        if (claim == ParkedPoll.Claim.WAS_PARKED) {
            parkedCount.decrementAndGet();
        }
        return claim != ParkedPoll.Claim.LOST;
    }

    /** The poll's deadline passed (or a container timeout fired): answer 204 unless the poll is already being answered. */
    @Override
    public void timedOut(ParkedPoll poll) {
        if (release(poll, OwnAnswer.TIMEOUT)) {
            metrics.timeouts.mark();
            try {
                NonBlockingAnswer.complete(poll.context(), 204);
            } catch (IllegalStateException completedMeanwhile) {
                // Jetty completed the request itself (it failed without telling the listener first): nothing to answer.
                LOG.debug("timed-out poll was already complete", completedMeanwhile);
            }
        }
    }

    /** Jetty completed the poll's request, however it was answered: its deadline is no longer needed. */
    @Override
    public void completed(ParkedPoll poll) {
        deadlines.remove(poll);
    }

    /** Jetty reports the request failed (client reset or closed the stream, connection failure): free its slot. */
    @Override
    public void failed(ParkedPoll poll, Throwable failure) {
        if (release(poll, OwnAnswer.FAILURE)) {
            metrics.disconnects.mark();
            LOG.debug("parked poll failed", failure);
            try {
                poll.context().complete();
            } catch (IllegalStateException alreadyCompleted) {
                // Jetty completed it itself.
            }
        }
    }

    /** Claims a poll for its timeout or failure, taking it out of the parked polls. */
    private boolean release(ParkedPoll poll, OwnAnswer answer) {
        ParkedPoll.Claim claim = poll.claim(answer);
        if (claim == ParkedPoll.Claim.LOST) {
            return false;
        }
        if (claim == ParkedPoll.Claim.WAS_PARKED) {
            parkedCount.decrementAndGet();
            lock.lock();
            try {
                parked.remove(poll); // absent if an event or the shutdown already took it out: harmless
            } finally {
                lock.unlock();
            }
        }
        return true;
    }

    /**
     * Runs on the dispatcher: queue for each poll of the batch the events after its cursor. The dispatcher only
     * registers write listeners; Jetty's threads write, so a slow reader never holds up the loop.
     */
    private void answerBatch(Collection<ParkedPoll> batch, long arrivedNanos) {
        BatchTiming timing = new BatchTiming(batch.size(), arrivedNanos, nanoClock, metrics.eventToLastWrite);
        Map<Long, byte[]> bodyByCursor = new HashMap<>();
        for (ParkedPoll poll : batch) {
            if (!poll.watch(timing)) {
                timing.completed(false); // already complete (timed out or failed): nothing to answer
                continue;
            }
            // Parked polls of one event usually share a cursor: serialize the answer once per cursor.
            byte[] body = bodyByCursor.computeIfAbsent(poll.cursor(), this::answerBody);
            if (body == null) {
                // The ring moved past this cursor before the batch got here (a burst): read it from the archive.
                archived.resolve(poll.cursor()).thenAccept(resolution -> placeResolved(poll, poll.cursor(), resolution));
                continue;
            }
            NonBlockingAnswer.send(poll.context(), 200, Map.of(), body, () -> claimTaken(poll, timing), metrics.disconnects);
        }
        metrics.eventToQueued.update(nanoClock.getAsLong() - arrivedNanos, TimeUnit.NANOSECONDS);
    }

    /** The answer to a batch poll at {@code cursor}; null when the ring no longer covers it and the archive must. */
    private byte[] answerBody(long cursor) {
        EventBatch batch;
        lock.lock();
        try {
            if (archived != null && !history.covers(cursor)) {
                return null;
            }
            batch = history.after(cursor);
        } finally {
            lock.unlock();
        }
        if (batch.missed()) {
            metrics.missed.mark();
        }
        return json.bytes(batch);
    }

    private EventBatch historyAfter(long cursor) {
        lock.lock();
        try {
            return history.after(cursor);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The server is stopping: refuses new polls (503, {@code Retry-After: 0}), wakes the blocking waiters with the same
     * answer, and hands over every parked poll, for {@link StopAnsweringParkedPolls} to answer.
     */
    Collection<ParkedPoll> closeAndTakeParked() {
        lock.lock();
        try {
            closed = true;
            blockingWaits.close();
            return parked.takeAll();
        } finally {
            lock.unlock();
        }
    }
}
