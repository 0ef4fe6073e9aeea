package com.example.threading.longpoll;

import jakarta.servlet.AsyncContext;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the event history and the parked polls, and answers every parked poll in one batch per event.
 *
 * <p>On each event (delivered by the {@link EventSource}) the hub appends it to the ring and swaps out the
 * whole set of parked polls under its lock, then hands that batch to a single dispatcher thread. The
 * dispatcher only queues a {@link NonBlockingAnswer} per poll (a write listener), so a slow reader cannot hold
 * it up, and it never touches the ForkJoin common pool; Jetty's threads do the writes. A poll is claimed when
 * its write starts, so an answer and the poll's own timeout never collide. Polls whose cursor already has news
 * are answered at once without parking. The blocking twin's threads wait in {@link #blockingWaits()}, on the
 * same lock and history.
 *
 * <p>With an {@link EventArchive} (a stream shared by several instances), a cursor the ring cannot answer is read
 * from the archive before it is answered or parked: older than the ring (answered from the log; {@code missed} only
 * when the log trimmed it), or above the newest event this instance has read (published elsewhere, the reader has not
 * delivered it yet: parked "ahead" until an event after it arrives). A batch poll whose cursor the ring dropped
 * before the dispatcher got to it (a burst) is also answered from the archive.
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>The source calls {@link #accept} from one thread at a time ({@link EventSource}'s contract); the
 *       append, the swap of the parked set and the wake-up of blocking waiters happen in one hold of
 *       {@code lock}, so a poll is either in the swapped-out batch or sees the event in the history.</li>
 *   <li>Jetty workers call {@link #poll} concurrently; the cursor check, the capacity check and the parking
 *       happen in one hold of {@code lock}. An archive read completes on the archive's thread, which then answers
 *       or parks the poll the same way (a fresh hold of {@code lock}); the poll's claim decides between it and the
 *       poll's timeout.</li>
 *   <li>One scheduled thread calls {@link #expireDue} every {@link #DEADLINE_TICK_MS}; it answers the polls whose
 *       timeout passed through {@link #timedOut}, claiming them like any other answerer. The polls' deadlines are the
 *       hub's own ({@link PollDeadlines}), not Jetty's async timeout, which would take one lock shared by every
 *       request to cancel each answered poll's timer.</li>
 *   <li>Jetty's callback threads call {@link #failed} and {@link #completed} (the hub is every poll's
 *       {@link ParkedPoll.ParkingLot}); the dispatcher thread and the shutdown queue answers. Who answers a poll
 *       is decided by {@link ParkedPoll#claim} outside the lock; answers are written outside the lock.</li>
 *   <li>The stopping thread calls {@link #close} once.</li>
 *   <li>Metrics read {@link #parkedCount} (an atomic, without the lock) and {@link #lastId} (under it) from any
 *       thread.</li>
 * </ul>
 * {@code lock} guards the history, the parked set, the polls parked ahead and {@code closed}.
 */
final class EventHub implements Consumer<Event>, ParkedPoll.ParkingLot {

    private static final Logger LOG = LoggerFactory.getLogger(EventHub.class);

    private static final Map<String, String> CLOSED_HEADERS = Map.of("Retry-After", "0", "Connection", "close");
    private static final String CLOSED_MESSAGE = "server is stopping, poll again";

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
    private Set<ParkedPoll> parked = new HashSet<>();
    /** Polls whose cursor is above the newest event read so far (a shared stream's reader lags), by cursor. */
    private final TreeMap<Long, Set<ParkedPoll>> ahead = new TreeMap<>();
    private boolean closed;

    private final AtomicInteger parkedCount = new AtomicInteger();
    private final int maxParked;
    private final long retryAfterSeconds;
    private final Executor dispatcher;
    private final JsonResponses json;
    private final LongPollMetrics metrics;
    private final EventArchive archive;
    private final int historySize;
    private final PollDeadlines deadlines = new PollDeadlines(DEADLINE_TICK_MS, System::nanoTime);

    /** How often {@link #expireDue} must be called, and so how late (at most) a poll's timeout is answered. */
    static final long DEADLINE_TICK_MS = 100;

    /** A hub whose ring is all the history there is (the in-process stream). */
    EventHub(int historySize, int maxParked, long retryAfterSeconds, Executor dispatcher, JsonResponses json,
             LongPollMetrics metrics) {
        this(historySize, maxParked, retryAfterSeconds, dispatcher, json, metrics, null);
    }

    /**
     * A hub that asks {@code archive} (a shared stream's log; null: none) for the cursors its ring cannot answer:
     * older than the ring, or above the newest event read so far.
     */
    EventHub(int historySize, int maxParked, long retryAfterSeconds, Executor dispatcher, JsonResponses json,
             LongPollMetrics metrics, EventArchive archive) {
        this.archive = archive;
        this.historySize = historySize;
        this.history = new EventHistory(historySize, lock);
        this.blockingWaits = new BlockingWaits(lock, history, metrics.blockingTimeouts, metrics.missed);
        this.maxParked = maxParked;
        this.retryAfterSeconds = retryAfterSeconds;
        this.dispatcher = dispatcher;
        this.json = json;
        this.metrics = metrics;
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
        long arrivedNanos = System.nanoTime();
        Set<ParkedPoll> batch;
        lock.lock();
        try {
            if (!history.append(event)) {
                return; // a redelivered or out-of-order event: the cursor already covers it
            }
            batch = parked;
            parked = new HashSet<>();
            wakeAhead(event.id(), batch);
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
     * With an archive, a cursor the ring cannot answer is read from the archive first. The async context must be
     * started; its container timeout should be 0 (none): the hub's own deadlines answer the timeout.
     */
    void poll(AsyncContext context, Long requestedCursor, long timeoutMs) {
        ParkedPoll poll = new ParkedPoll(context, this);
        context.addListener(poll);
        deadlines.add(poll, timeoutMs);
        place(poll, requestedCursor, archive != null);
    }

    /**
     * Answers 204 to every poll whose timeout has passed and that nobody has answered; called every
     * {@link #DEADLINE_TICK_MS} by one scheduled thread. Returns how many deadlines passed.
     */
    int expireDue() {
        return deadlines.expireDue(this::timedOut);
    }

    /**
     * Answers, rejects or parks {@code poll}; {@code mayAskArchive} false once the archive was asked (or with none):
     * then a cursor above the newest event read so far is parked until the reader gets there.
     */
    private void place(ParkedPoll poll, Long requestedCursor, boolean mayAskArchive) {
        EventBatch news = null;
        boolean full = false;
        boolean askArchive = false;
        boolean wasClosed;
        lock.lock();
        try {
            wasClosed = closed;
            if (!wasClosed) {
                if (requestedCursor != null && history.hasNewsFor(requestedCursor)) {
                    boolean covered = history.covers(requestedCursor);
                    if (covered || archive == null) {
                        news = history.after(requestedCursor);
                    } else if (mayAskArchive) {
                        askArchive = true;
                    } else if (requestedCursor > history.lastId()) {
                        full = !park(poll, requestedCursor);
                        if (!full) {
                            return;
                        }
                    } else {
                        news = history.after(requestedCursor);
                    }
                } else if (!park(poll, requestedCursor == null ? history.lastId() : requestedCursor)) {
                    full = true;
                } else {
                    return;
                }
            }
        } finally {
            lock.unlock();
        }
        if (askArchive) {
            readArchive(poll, requestedCursor);
            return;
        }
        BooleanSupplier claimNow = () -> claimAtOnce(poll);
        if (wasClosed) {
            NonBlockingAnswer.send(poll.context(), 503, CLOSED_HEADERS, json.error(503, CLOSED_MESSAGE), claimNow, metrics.disconnects);
        } else if (full) {
            metrics.rejected.mark();
            NonBlockingAnswer.send(poll.context(), 503, Map.of("Retry-After", Long.toString(retryAfterSeconds)),
                    json.error(503, "too many parked polls (" + maxParked + "), retry later"), claimNow, metrics.disconnects);
        } else {
            answerAtOnce(poll, news);
        }
    }

    /** Parks {@code poll} after {@code cursor} (with the lock held); false when the hub is full. */
    private boolean park(ParkedPoll poll, long cursor) {
        if (parkedCount.get() >= maxParked) {
            return false;
        }
        if (poll.markParked(cursor)) {
            if (cursor > history.lastId()) {
                ahead.computeIfAbsent(cursor, c -> new HashSet<>()).add(poll);
            } else {
                parked.add(poll);
            }
            parkedCount.incrementAndGet();
        }
        return true;
    }

    /** With the lock held, after appending event {@code id}: polls ahead at a lower cursor join the batch, those at {@code id} wait for the next. */
    private void wakeAhead(long id, Set<ParkedPoll> batch) {
        if (ahead.isEmpty()) {
            return;
        }
        SortedMap<Long, Set<ParkedPoll>> due = ahead.headMap(id, true);
        for (Map.Entry<Long, Set<ParkedPoll>> entry : due.entrySet()) {
            (entry.getKey() < id ? batch : parked).addAll(entry.getValue());
        }
        due.clear();
    }

    private void answerAtOnce(ParkedPoll poll, EventBatch news) {
        metrics.answeredAtOnce.mark();
        if (news.missed()) {
            metrics.missed.mark();
        }
        NonBlockingAnswer.send(poll.context(), 200, Map.of(), json.bytes(news), () -> claimAtOnce(poll), metrics.disconnects);
    }

    /** Claims a poll for an answer of the hub's own; one taken out of the parked set by a batch leaves the count here. */
    private boolean claimAtOnce(ParkedPoll poll) {
        ParkedPoll.Claim claim = poll.claim(OwnAnswer.AT_ONCE);
        if (claim == ParkedPoll.Claim.WAS_PARKED) {
            parkedCount.decrementAndGet();
        }
        return claim != ParkedPoll.Claim.LOST;
    }

    /**
     * Asks the archive for the events after {@code cursor}; answers from its read, parks the poll when the cursor is
     * the stream's newest id (this instance's reader has not got there yet), answers as the ring would for a cursor
     * above the stream's newest id, and answers 503 when the archive cannot be read (parks instead when the cursor
     * is ahead of this instance: the reader will bring the events).
     */
    private void readArchive(ParkedPoll poll, long cursor) {
        CompletionStage<EventArchive.Read> read;
        try {
            read = archive.after(cursor, historySize);
        } catch (RuntimeException brokenArchive) {
            read = CompletableFuture.failedFuture(brokenArchive);
        }
        read.whenComplete((log, failure) -> {
            if (failure != null) {
                LOG.debug("event archive unavailable for cursor {}: {}", cursor, failure.toString());
                if (cursor > lastId()) {
                    place(poll, cursor, false);
                } else {
                    NonBlockingAnswer.send(poll.context(), 503, Map.of("Retry-After", Long.toString(retryAfterSeconds)),
                            json.error(503, "the event history is unavailable, retry later"), () -> claimAtOnce(poll),
                            metrics.disconnects);
                }
            } else if (!log.events().isEmpty()) {
                List<Event> events = log.events();
                answerAtOnce(poll, new EventBatch(events, events.get(0).id() != cursor + 1, events.get(events.size() - 1).id()));
            } else if (cursor <= log.newestId() && cursor >= lastId()) {
                // The cursor is the stream's newest id, and this instance has not read past it: wait for the next
                // event (parked ahead until the reader gets there).
                place(poll, cursor, false);
            } else {
                // Beyond the stream's newest id (e.g. a cursor from before Redis lost its data), or trimmed: the
                // ring's answer, with missed.
                answerAtOnce(poll, historyAfter(cursor));
            }
        });
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

    /** Claims a poll for its timeout or failure, taking it out of the parked set. */
    private boolean release(ParkedPoll poll, OwnAnswer answer) {
        ParkedPoll.Claim claim = poll.claim(answer);
        if (claim == ParkedPoll.Claim.LOST) {
            return false;
        }
        if (claim == ParkedPoll.Claim.WAS_PARKED) {
            parkedCount.decrementAndGet();
            lock.lock();
            try {
                if (!parked.remove(poll)) { // absent if an event or shutdown already took the set out: harmless
                    Set<ParkedPoll> atCursor = ahead.get(poll.cursor());
                    if (atCursor != null && atCursor.remove(poll) && atCursor.isEmpty()) {
                        ahead.remove(poll.cursor());
                    }
                }
            } finally {
                lock.unlock();
            }
        }
        return true;
    }

    /** Claims a poll that was taken out of the parked set (by an event or shutdown) for {@code watcher}. */
    private boolean claimTaken(ParkedPoll poll, ParkedPoll.Watcher watcher) {
        ParkedPoll.Claim claim = poll.claim(watcher);
        if (claim == ParkedPoll.Claim.WAS_PARKED) {
            parkedCount.decrementAndGet();
        }
        return claim != ParkedPoll.Claim.LOST;
    }

    /**
     * Runs on the dispatcher: queue for each poll of the batch the events after its cursor. The dispatcher only
     * registers write listeners; Jetty's threads write, so a slow reader never holds up the loop.
     */
    private void answerBatch(Set<ParkedPoll> batch, long arrivedNanos) {
        BatchWrites writes = new BatchWrites(batch.size(), arrivedNanos);
        Map<Long, byte[]> bodyByCursor = new HashMap<>();
        for (ParkedPoll poll : batch) {
            if (!poll.watch(writes)) {
                writes.completed(false); // already complete (timed out or failed): nothing to answer
                continue;
            }
            // Parked polls of one event usually share a cursor: serialize the answer once per cursor.
            byte[] body = bodyByCursor.computeIfAbsent(poll.cursor(), this::answerBody);
            if (body == null) {
                // The ring moved past this cursor before the batch got here (a burst): read it from the archive.
                readArchive(poll, poll.cursor());
                continue;
            }
            NonBlockingAnswer.send(poll.context(), 200, Map.of(), body, () -> claimTaken(poll, writes), metrics.disconnects);
        }
        metrics.eventToQueued.update(System.nanoTime() - arrivedNanos, TimeUnit.NANOSECONDS);
    }

    /** The answer to a batch poll at {@code cursor}; null when the ring no longer covers it and the archive must. */
    private byte[] answerBody(long cursor) {
        EventBatch batch;
        lock.lock();
        try {
            if (archive != null && !history.covers(cursor)) {
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
     * The server is stopping: refuse new polls, answer blocking waiters and every parked poll with
     * 503 and {@code Retry-After: 0} (another instance can take it), waiting up to {@code timeoutMs} for the
     * answers to be complete. Returns how many parked polls were answered by this call.
     */
    int close(long timeoutMs) throws InterruptedException {
        Set<ParkedPoll> batch;
        lock.lock();
        try {
            closed = true;
            batch = parked;
            parked = new HashSet<>();
            ahead.values().forEach(batch::addAll);
            ahead.clear();
            blockingWaits.close();
        } finally {
            lock.unlock();
        }
        CountDownLatch complete = new CountDownLatch(batch.size());
        AtomicInteger answered = new AtomicInteger();
        ParkedPoll.Watcher shutdown = byShutdown -> {
            if (byShutdown) {
                answered.incrementAndGet();
                metrics.shutdownAnswers.mark();
            }
            complete.countDown();
        };
        byte[] body = json.error(503, CLOSED_MESSAGE);
        for (ParkedPoll poll : batch) {
            if (!poll.watch(shutdown)) {
                complete.countDown();
                continue;
            }
            NonBlockingAnswer.send(poll.context(), 503, CLOSED_HEADERS, body, () -> claimTaken(poll, shutdown), metrics.disconnects);
        }
        if (!complete.await(timeoutMs, TimeUnit.MILLISECONDS)) {
            LOG.warn("{} of {} parked polls not complete within {} ms of shutdown", complete.getCount(), batch.size(), timeoutMs);
        }
        return answered.get();
    }

    /** Counts the completions of one batch's polls and records the time from the event to the last one answered. */
    private final class BatchWrites implements ParkedPoll.Watcher {
        private final AtomicInteger pending;
        private final long arrivedNanos;
        private volatile boolean anyAnswered;

        BatchWrites(int size, long arrivedNanos) {
            this.pending = new AtomicInteger(size);
            this.arrivedNanos = arrivedNanos;
        }

        @Override
        public void completed(boolean byBatch) {
            if (byBatch) {
                anyAnswered = true;
            }
            if (pending.decrementAndGet() == 0 && anyAnswered) {
                metrics.eventToLastWrite.update(System.nanoTime() - arrivedNanos, TimeUnit.NANOSECONDS);
            }
        }
    }
}
