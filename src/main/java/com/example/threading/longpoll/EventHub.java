package com.example.threading.longpoll;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * Holds the topics (each its event history and parked polls) and answers the polls parked on a topic in one batch
 * per event of that topic.
 *
 * <p>On each event (delivered by the {@link EventSource}) the hub appends it to its topic's ring and takes out the
 * polls it answers ({@link ParkedPolls}) under its lock, then hands that batch to a single dispatcher thread. The
 * dispatcher only offers each poll its {@link Answer} through the poll's {@link Delivery}, which never blocks (the
 * long-poll transport registers a write listener), so a slow reader cannot hold it up; the transport's threads write. A poll is claimed when its write starts, so an answer, the poll's deadline
 * ({@link PollDeadlines}), a failure and the shutdown never collide. A poll whose cursors already have news is answered
 * at once without parking; a poll of several topics parks on each and is answered by the first event on any of them,
 * with the news of all. The blocking twin's threads wait in {@link #blockingWaits()}, on the same lock and topics.
 *
 * <p>With an {@link EventArchive} (a stream shared by several instances), {@link ArchivedCursors} decides each cursor
 * instead of the ring alone: one the ring cannot answer is read from the archive first, and the poll placed again; one
 * above the newest event read here parks until the reader gets past it. Without one, a cursor is read off its topic's
 * ring ({@code readRing}).
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>The source calls {@link #accept} from one thread at a time ({@link EventSource}'s contract); the append, the
 *       taking of the batch and the wake-up of blocking waiters happen in one hold of {@code lock}, so a poll is
 *       either in the batch or sees the event in the history.</li>
 *   <li>Jetty workers call {@link #poll} and {@link #admitTopic} concurrently; the cursor checks, the capacity checks
 *       and the parking happen in one hold of {@code lock}. An archive read completes on the archive's thread, which
 *       then answers or parks the poll the same way (a fresh hold of {@code lock}).</li>
 *   <li>One scheduled thread calls {@link #expireDue} every {@link #DEADLINE_TICK_MS} (it answers the polls whose
 *       deadline passed, claiming them like any other answerer) and {@link #evictIdleTopics}.</li>
 *   <li>Jetty's callback threads call {@link #failed} and {@link #completed} (the hub is every poll's
 *       {@link ParkedPoll.ParkingLot}). Who answers a poll is decided by {@link ParkedPoll#claim} outside the lock;
 *       answers are written outside the lock. The source is told of created and evicted topics outside the lock,
 *       except of a topic a blocking wait creates ({@link EventSource#watch} does not block).</li>
 *   <li>The stopping thread calls {@link #closeAndTakeParked} once ({@link StopAnsweringParkedPolls} answers them).</li>
 *   <li>Metrics read {@link #parkedCount}, {@link #topicCount} (without the lock) and {@link #lastId} (under it) from
 *       any thread.</li>
 * </ul>
 * {@code lock} guards the topics (their histories and parked polls) and {@code closed}.
 */
final class EventHub implements Consumer<Event>, ParkedPoll.ParkingLot {

    private static final Logger LOG = LoggerFactory.getLogger(EventHub.class);

    /** How often {@link #expireDue} must be called, and so how late (at most) a poll's timeout is answered. */
    static final long DEADLINE_TICK_MS = 100;

    /** The answer to a poll while the server stops; another instance can take it. */
    static final String CLOSED_MESSAGE = "server is stopping, poll again";

    /** The hub's own claims on a poll, as opposed to those of an event's batch or the shutdown. */
    private enum OwnAnswer implements ParkedPoll.Answerer {
        /** The poll's cursors had news, the hub was full or closed: answered without parking. */
        AT_ONCE,
        /** The poll's deadline passed (the hub's sweep, or a container timeout where one is set): 204. */
        TIMEOUT,
        /** The request failed: completed without an answer. */
        FAILURE
    }

    /** What {@link #place} decided, under the lock; acted on outside it. */
    private enum Placement { PARKED, ANSWER, ASK_ARCHIVE, CLOSED, FULL, TOO_MANY_TOPICS, HISTORY_UNAVAILABLE }

    private final ReentrantLock lock = new ReentrantLock();
    private final Topics topics;
    private final BlockingWaits blockingWaits;
    private boolean closed;

    private final AtomicInteger parkedCount = new AtomicInteger();
    private final int maxParked;
    private final ShutdownSpread shutdownSpread;
    private final Executor dispatcher;
    private final JsonResponses json;
    private final LongPollMetrics metrics;
    private final EventSource source;
    private final ArchivedCursors archived;
    private final LongSupplier nanoClock;
    private final PollDeadlines deadlines;

    /** Everything a hub is built from; {@code shutdownSpread} gives the Retry-After of polls turned away while it stops. */
    record Settings(int historySize, int maxParked, int maxTopics, ShutdownSpread shutdownSpread) {
    }

    /**
     * A hub on {@code source} (told which topics to deliver), asking {@code archive} (a shared stream's log; null:
     * none) for the cursors its rings cannot answer, reading deadlines and batch times off {@code nanoClock} (e.g.
     * {@code System::nanoTime}).
     */
    EventHub(Settings settings, Executor dispatcher, JsonResponses json, LongPollMetrics metrics, EventSource source,
             EventArchive archive, LongSupplier nanoClock) {
        // In-process, the hub's rings are the histories: each topic's epoch is made here, new at every start and at every
        // re-creation of an evicted topic (whose ids start again at 1). A shared stream keeps its histories: no epochs.
        this.topics = new Topics(settings.maxTopics(), settings.historySize(), lock,
                archive == null ? Long.toString(System.currentTimeMillis(), 36) : null);
        this.blockingWaits = new BlockingWaits(lock, this::topicForBlockingWait, metrics.blockingTimeouts, metrics.missed);
        this.maxParked = settings.maxParked();
        this.shutdownSpread = settings.shutdownSpread();
        this.dispatcher = dispatcher;
        this.json = json;
        this.metrics = metrics;
        this.source = source;
        this.archived = archive == null ? null : new ArchivedCursors(archive, settings.historySize(), this::lastId);
        this.nanoClock = nanoClock;
        this.deadlines = new PollDeadlines(DEADLINE_TICK_MS, nanoClock);
        lock.lock();
        try {
            topics.getOrCreate(TopicNames.DEFAULT, nanoClock.getAsLong()); // the ticker's, never evicted
        } finally {
            lock.unlock();
        }
        source.watch(TopicNames.DEFAULT);
    }

    /** Requests parked on {@code GET /events} and not yet claimed for an answer. */
    int parkedCount() {
        return parkedCount.get();
    }

    /** Topics held now. */
    int topicCount() {
        return topics.size();
    }

    /** Where the threads of {@code GET /events/blocking} wait, on this hub's topics. */
    BlockingWaits blockingWaits() {
        return blockingWaits;
    }

    /** Id of the newest event of {@code topic} read here, 0 before the first (or when the hub does not hold it). */
    long lastId(String topic) {
        lock.lock();
        try {
            Topic held = topics.get(topic);
            return held == null ? 0 : held.history().lastId();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes sure the hub holds {@code topic} before an event is published on it (creating it if needed); false when it
     * would be one topic too many (the publish is then refused). Marks the topic used.
     */
    boolean admitTopic(String topic) {
        List<String> created = new ArrayList<>(1);
        Topic held;
        lock.lock();
        try {
            held = useTopic(topic, created);
        } finally {
            lock.unlock();
        }
        created.forEach(this::created);
        return held != null;
    }

    /** Receives the next event from the source: records it and answers the polls its topic's event takes. */
    @Override
    public void accept(Event event) {
        long arrivedNanos = nanoClock.getAsLong();
        Collection<ParkedPoll> batch;
        lock.lock();
        try {
            Topic topic = topics.get(event.topic());
            if (topic == null || !topic.history().append(event)) {
                return; // a topic this hub no longer holds, or a redelivered or out-of-order event
            }
            topic.used(arrivedNanos);
            batch = topic.parked().takeBefore(event.id());
            for (ParkedPoll poll : batch) {
                if (poll.severalTopics()) {
                    leaveOtherTopics(poll, event.topic());
                }
            }
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
     * Answers the poll at once if any of its cursors has news, refuses it if the hub is full or closed (or it would
     * create a topic too many), or parks it on each of its topics until the next event on any of them or
     * {@code timeoutMs} (then {@link Delivery#expire}). The answer goes out through {@code delivery}, whose transport
     * should set no timeout of its own: the hub's deadlines answer.
     */
    void poll(Delivery delivery, List<TopicCursor> asked, long timeoutMs) {
        ParkedPoll poll = new ParkedPoll(delivery, this, asked);
        delivery.attach(poll);
        deadlines.add(poll, timeoutMs);
        place(poll, Map.of(), archived != null);
    }

    /**
     * Answers 204 to every poll whose timeout has passed and that nobody has answered; called every
     * {@link #DEADLINE_TICK_MS} by one scheduled thread. Returns how many deadlines passed.
     */
    int expireDue() {
        return deadlines.expireDue(this::timedOut);
    }

    /** Drops the topics nobody has used for {@code idleNanos} (no parked poll, blocked thread or event); returns how many. */
    int evictIdleTopics(long idleNanos) {
        Map<String, Long> evicted = new HashMap<>();
        lock.lock();
        try {
            topics.evictIdle(nanoClock.getAsLong(), idleNanos).forEach(topic -> evicted.put(topic.name(), topic.history().lastId()));
        } finally {
            lock.unlock();
        }
        evicted.forEach((topic, lastIdSeen) -> {
            metrics.topicsEvicted.mark();
            source.forget(topic, lastIdSeen);
        });
        return evicted.size();
    }

    /**
     * Answers, rejects or parks {@code poll}. {@code fromArchive}: what the archive said about some of its topics;
     * {@code mayAskArchive}: whether a cursor a ring cannot answer goes to the archive (false once it has been asked,
     * or without one; a wait the reader overtook from above is asked again).
     */
    private void place(ParkedPoll poll, Map<String, ArchivedCursors.Resolution> fromArchive, boolean mayAskArchive) {
        Map<String, Long> cursors = new LinkedHashMap<>();
        Map<String, EventBatch> news = new LinkedHashMap<>();
        List<TopicCursor> askArchive = new ArrayList<>();
        List<String> created = new ArrayList<>();
        Placement placement;
        lock.lock();
        try {
            placement = closed ? Placement.CLOSED
                    : readTopics(poll, fromArchive, mayAskArchive, cursors, news, askArchive, created);
            if (placement == null) {
                placement = !askArchive.isEmpty() ? Placement.ASK_ARCHIVE
                        : !news.isEmpty() ? Placement.ANSWER
                        : park(poll, cursors) ? Placement.PARKED : Placement.FULL;
            }
        } finally {
            lock.unlock();
        }
        created.forEach(this::created);
        switch (placement) {
            case PARKED -> { }
            case ANSWER -> answerAtOnce(poll, PollAnswer.of(poll.asked(), cursors, news), news);
            case ASK_ARCHIVE -> archived.ask(askArchive, fromArchive, resolutions -> place(poll, resolutions, false));
            case CLOSED -> {
                metrics.shutdownTurnedAway.mark();
                poll.delivery().offer(new Answer.Closing(shutdownSpread.nextRetryAfter()), () -> claimAtOnce(poll));
            }
            case FULL -> {
                metrics.rejected.mark();
                refuse(poll, "too many parked polls (" + maxParked + "), retry later");
            }
            case TOO_MANY_TOPICS -> refuse(poll, "too many topics (" + topics.max() + " held), retry later");
            case HISTORY_UNAVAILABLE -> refuse(poll, "the event history is unavailable, retry later");
            default -> throw new IllegalStateException("unknown placement " + placement);
        }
    }

    /**
     * With the lock held: finds or creates each topic the poll asked for and sorts them into those with news, those
     * the archive must answer first, and those without news; fills in the cursors. Returns a placement that ends the
     * poll at once (too many topics, history unavailable), or null to decide from what was found.
     */
    private Placement readTopics(ParkedPoll poll, Map<String, ArchivedCursors.Resolution> fromArchive, boolean mayAskArchive,
                                 Map<String, Long> cursors, Map<String, EventBatch> news, List<TopicCursor> askArchive,
                                 List<String> created) {
        for (TopicCursor asked : poll.asked()) {
            Topic topic = useTopic(asked.topic(), created);
            if (topic == null) {
                return Placement.TOO_MANY_TOPICS;
            }
            CursorReading reading = archived == null ? readRing(asked, topic.history())
                    : archived.read(asked, topic.history(), fromArchive.get(asked.topic()), mayAskArchive);
            if (reading.unavailable()) {
                return Placement.HISTORY_UNAVAILABLE;
            }
            cursors.put(asked.topic(), reading.cursor());
            if (reading.news() != null) {
                news.put(asked.topic(), reading.news());
            }
            if (reading.askArchive() != null) {
                askArchive.add(reading.askArchive());
            }
        }
        return null;
    }

    /**
     * The in-process rule: the ring is all the history there is; any cursor but its newest id has news (or missed), and
     * a cursor of another epoch (before a restart, or before its topic was evicted) is missed at once.
     */
    private CursorReading readRing(TopicCursor asked, EventHistory history) {
        if (!history.sameEpoch(asked.epoch())) {
            metrics.epochMismatches.mark();
            return CursorReading.news(history.lastId(), history.epochChanged());
        }
        long cursor = asked.after() == null ? history.lastId() : asked.after();
        return history.hasNewsFor(cursor) ? CursorReading.news(cursor, history.after(cursor)) : CursorReading.waitAfter(cursor);
    }

    /** Parks {@code poll} on each of its topics after {@code cursors} (with the lock held); false when the hub is full. */
    private boolean park(ParkedPoll poll, Map<String, Long> cursors) {
        if (parkedCount.get() >= maxParked) {
            return false;
        }
        if (poll.markParked(Map.copyOf(cursors))) { // false: its deadline or a failure claimed it meanwhile
            for (String topic : cursors.keySet()) {
                topics.get(topic).parked().add(poll);
            }
            parkedCount.incrementAndGet();
        }
        return true;
    }

    /** With the lock held: a poll of several topics taken out by an event of {@code answeredBy} leaves the others. */
    private void leaveOtherTopics(ParkedPoll poll, String answeredBy) {
        for (String other : poll.cursors().keySet()) {
            Topic topic = topics.get(other);
            if (!other.equals(answeredBy) && topic != null) {
                topic.parked().remove(poll);
            }
        }
    }

    private void created(String topic) {
        metrics.topicsCreated.mark();
        source.watch(topic);
    }

    private void answerAtOnce(ParkedPoll poll, Object answer, Map<String, EventBatch> news) {
        metrics.answeredAtOnce.mark();
        if (news.values().stream().anyMatch(EventBatch::missed)) {
            metrics.missed.mark();
        }
        poll.delivery().offer(new Answer.News(json.bytes(answer)), () -> claimAtOnce(poll));
    }

    private void refuse(ParkedPoll poll, String reason) {
        poll.delivery().offer(new Answer.Refused(reason), () -> claimAtOnce(poll));
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
            poll.delivery().expire();
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
            poll.delivery().abandon();
        }
    }

    /** Claims a poll for its timeout or failure, taking it out of the parked polls of each of its topics. */
    private boolean release(ParkedPoll poll, OwnAnswer answer) {
        ParkedPoll.Claim claim = poll.claim(answer);
        if (claim == ParkedPoll.Claim.LOST) {
            return false;
        }
        if (claim == ParkedPoll.Claim.WAS_PARKED) {
            parkedCount.decrementAndGet();
            lock.lock();
            try {
                for (String name : poll.cursors().keySet()) {
                    Topic topic = topics.get(name);
                    if (topic != null) {
                        topic.parked().remove(poll); // absent if an event or the shutdown took it out: harmless
                    }
                }
            } finally {
                lock.unlock();
            }
        }
        return true;
    }

    /**
     * Runs on the dispatcher: queue for each poll of the batch the news after its cursors. The dispatcher only
     * registers write listeners; Jetty's threads write, so a slow reader never holds up the loop.
     */
    private void answerBatch(Collection<ParkedPoll> batch, long arrivedNanos) {
        BatchTiming timing = new BatchTiming(batch.size(), arrivedNanos, nanoClock, metrics.eventToLastWrite);
        Map<Map<String, Long>, byte[]> bodyByCursors = new HashMap<>();
        for (ParkedPoll poll : batch) {
            if (!poll.watch(timing)) {
                timing.completed(false); // already complete (timed out or failed): nothing to answer
                continue;
            }
            // The polls of one event usually share their cursors: serialize the answer once per cursors.
            byte[] body = bodyByCursors.computeIfAbsent(poll.cursors(), cursors -> answerBody(poll));
            if (body == null) {
                // A ring moved past a cursor before the batch got here (a burst): read it from the archive.
                List<TopicCursor> atCursors = new ArrayList<>();
                poll.cursors().forEach((topic, cursor) -> atCursors.add(new TopicCursor(topic, cursor)));
                archived.ask(atCursors, Map.of(), resolutions -> place(poll, resolutions, false));
                continue;
            }
            poll.delivery().offer(new Answer.News(body), () -> claimTaken(poll, timing));
        }
        metrics.eventToQueued.update(nanoClock.getAsLong() - arrivedNanos, TimeUnit.NANOSECONDS);
    }

    /** The answer to a batch poll after its cursors; null when a ring no longer covers one and the archive must. */
    private byte[] answerBody(ParkedPoll poll) {
        Map<String, EventBatch> news = new LinkedHashMap<>();
        lock.lock();
        try {
            for (Map.Entry<String, Long> cursor : poll.cursors().entrySet()) {
                Topic topic = topics.get(cursor.getKey());
                if (topic == null || !topic.history().hasNewsFor(cursor.getValue())) {
                    continue;
                }
                if (archived != null && !topic.history().covers(cursor.getValue())) {
                    return null;
                }
                news.put(cursor.getKey(), topic.history().after(cursor.getValue()));
            }
        } finally {
            lock.unlock();
        }
        if (news.values().stream().anyMatch(EventBatch::missed)) {
            metrics.missed.mark();
        }
        return json.bytes(PollAnswer.of(poll.asked(), poll.cursors(), news));
    }

    /**
     * With the lock held: the topic {@code name}, marked used; created if needed (its name added to {@code created}
     * for the caller to tell the source); null, and counted, when it would be one topic too many.
     */
    private Topic useTopic(String name, List<String> created) {
        long now = nanoClock.getAsLong();
        Topic topic = topics.get(name);
        if (topic == null) {
            topic = topics.getOrCreate(name, now);
            if (topic == null) {
                metrics.topicsRefused.mark();
                return null;
            }
            created.add(name);
        }
        topic.used(now);
        return topic;
    }

    /** For a blocking wait, with the lock held: {@link #useTopic}, telling the source of a new topic at once. */
    private Topic topicForBlockingWait(String name) {
        List<String> created = new ArrayList<>(1);
        Topic topic = useTopic(name, created);
        created.forEach(this::created); // under the hub's lock: EventSource.watch may not block
        return topic;
    }

    /**
     * The server is stopping: refuses new polls (503, {@code Retry-After} from the shutdown spread), wakes the blocking waiters with the same
     * answer, and hands over every parked poll, once, for {@link StopAnsweringParkedPolls} to answer.
     */
    Collection<ParkedPoll> closeAndTakeParked() {
        Set<ParkedPoll> all = new LinkedHashSet<>(); // a poll of several topics is parked on each
        lock.lock();
        try {
            closed = true;
            blockingWaits.close();
            topics.forEach(topic -> all.addAll(topic.parked().takeAll()));
        } finally {
            lock.unlock();
        }
        return all;
    }
}
