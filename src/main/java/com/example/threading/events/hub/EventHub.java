package com.example.threading.events.hub;

import com.example.threading.events.history.ArchiveAnswer;
import com.example.threading.events.history.ArchivedCursors;
import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.stream.Event;
import com.example.threading.events.stream.EventArchive;
import com.example.threading.events.stream.EventSource;
import com.example.threading.events.stream.EventSubscriber;
import com.example.threading.events.stream.TopicNames;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The core of the events wing, which knows no HTTP: holds the topics (each its history and parked polls), places each
 * poll — answered at once when its cursors have news, refused, or parked on each of its topics — and answers the polls
 * parked on a topic in one batch per event of that topic. Answers are {@link Answer}s handed to each poll's
 * {@link Delivery}; the transport puts them on the wire.
 *
 * <p>On each event (delivered by the {@link EventSource}) the hub appends it to its topic's ring and takes out the
 * polls it answers ({@link ParkedPolls}) under its lock, then hands that batch to a single dispatcher thread, which
 * offers each poll its answer; a delivery never blocks (the long-poll transport registers a write listener), so a slow
 * reader cannot hold the batch up. Who answers a poll — the batch, the hub at once, its deadline
 * ({@link PollDeadlines}), a failure or the shutdown — is decided by one claim ({@link PollClaims}), at write time.
 * A standing poll ({@link #follow}: an event stream's, a socket's) is not taken out: the same thread hands it the
 * events of its topics ({@link FollowedEvents}), and it stays parked until it is claimed.
 *
 * <p>Without an {@link EventArchive}, a cursor is read off its topic's ring
 * ({@link com.example.threading.events.history.EventHistory#read}); with one (a
 * stream shared by instances), {@link ArchivedCursors} reads the archive first for what the ring cannot answer.
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>The source calls {@link #accept} from one thread at a time ({@link EventSource}'s contract); the append, the
 *       taking of the batch and the wake-up of blocking waiters happen in one hold of {@code lock}, so a poll is
 *       either in the batch or sees the event in the history.</li>
 *   <li>Request threads call {@link #poll} and {@link #admitTopics} concurrently; reading the cursors, the capacity
 *       checks and the parking happen in one hold of {@code lock}. An archive read completes on the archive's thread,
 *       which places the poll again the same way. Topics created under the lock are told to the source at once
 *       ({@link EventSource#watch} does not block); evicted ones after the lock is released.</li>
 *   <li>One scheduled thread calls {@link #expireDue} every {@link #DEADLINE_SLOT_MS} and {@link #evictIdleTopics}.</li>
 *   <li>The transport's threads report failures and completions to {@link #claims()}, every poll's parking lot.</li>
 *   <li>The stopping thread calls {@link #closeAndTakeParked} once ({@code StopAnsweringParkedPolls} answers them).</li>
 *   <li>Metrics read {@link #parkedCount}, {@link #topicCount} (without the lock) and {@link #lastId} (under it).</li>
 * </ul>
 * Every hold of {@code lock} is in this class, and Error Prone checks its {@code @GuardedBy} fields as the build
 * compiles; the helpers that run under it ({@link Topics}, {@link PollPlacer}, {@link BatchAnswers#read}) take none.
 * {@code EventHubTest} races batches against timeouts on real threads.
 */
public final class EventHub implements EventSubscriber {

    /** How often {@link #expireDue} must be called, and so how late (at most) a poll's timeout is answered. */
    public static final long DEADLINE_SLOT_MS = 100;

    /**
     * Everything a hub is built from: its bounds, the Retry-After of polls turned away while it stops, and the clock
     * its deadlines and batch times are read off (e.g. {@code System::nanoTime}).
     */
    public record Settings(int historySize, int maxParked, int maxTopics, ShutdownSpread shutdownSpread, LongSupplier nanoClock) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    @GuardedBy("lock")
    private final Topics topics;
    @GuardedBy("lock")
    private boolean closed;
    private final Settings settings;
    private final BlockingWaits blockingWaits;
    private final PollDeadlines deadlines;
    private final PollClaims claims;
    private final BatchAnswers batches;
    private final Executor dispatcher;
    private final NewsJson newsJson;
    private final HubMetrics metrics;
    private final EventSource source;
    private final ArchivedCursors archived;
    private final PollPlacer placer;

    /**
     * A hub on {@code source} (told which topics to deliver), asking {@code archive} (a shared stream's log; null:
     * none) for the cursors its rings cannot answer; batches are answered on {@code dispatcher}.
     */
    public EventHub(Settings settings, Executor dispatcher, ObjectMapper mapper, HubMetrics metrics, EventSource source,
             EventArchive archive) {
        // In-process, the hub's rings are the histories: each topic's epoch is made here, new at every start and at every
        // re-creation of an evicted topic (whose ids start again at 1). A shared stream's epochs come with its events.
        this.topics = new Topics(settings.maxTopics(), settings.historySize(), lock,
                archive == null ? Long.toString(System.currentTimeMillis(), 36) : null, created -> {
                    metrics.topicsCreated.mark();
                    source.watch(created); // does not block, nor take a lock held while an event is delivered
                }, metrics.topicsRefused);
        this.settings = settings;
        @SuppressWarnings("GuardedBy") // BlockingWaits calls it with the lock held, which the checker cannot follow
        Function<String, Topic> useTopic = this::useTopic;
        this.blockingWaits = new BlockingWaits(lock, useTopic, metrics.blockingTimeouts, metrics.missed);
        this.deadlines = new PollDeadlines(DEADLINE_SLOT_MS, settings.nanoClock());
        this.claims = new PollClaims(this::leaveTopics, deadlines, metrics);
        this.archived = archive == null ? null : new ArchivedCursors(archive, settings.historySize(), this::lastId);
        this.placer = new PollPlacer(archived, claims, metrics, settings.maxParked());
        this.newsJson = new NewsJson(mapper);
        this.batches = new BatchAnswers(this::readForBatch, claims, newsJson, metrics, settings.nanoClock(),
                archive == null ? null
                        : poll -> archived.ask(poll.cursorsNow(), Map.of(), answers -> place(poll, answers, false)));
        this.dispatcher = dispatcher;
        this.metrics = metrics;
        this.source = source;
        source.watch(TopicNames.DEFAULT);
    }

    /** Polls parked and not yet claimed for an answer. */
    public int parkedCount() {
        return claims.parkedCount();
    }

    /** Topics held now. */
    @SuppressWarnings("GuardedBy") // Topics.size reads a volatile count, no lock needed
    public int topicCount() {
        return topics.size();
    }

    /** Where the threads of {@code GET /events/blocking} wait, on this hub's topics. */
    public BlockingWaits blockingWaits() {
        return blockingWaits;
    }

    /** Who answers each poll: the polls' parking lot, and the claim every answerer takes. */
    PollClaims claims() {
        return claims;
    }

    /**
     * Takes the right to answer {@code poll} for {@code answerer} (e.g. the shutdown, which then offers its answer);
     * false if someone else has it.
     */
    public boolean claim(ParkedPoll poll, ParkedPoll.Answerer answerer) {
        return claims.claim(poll, answerer);
    }

    /**
     * The transport ends {@code poll} itself, without an answer (an event stream ending while its poll is parked): takes
     * it out of its topics unless someone else has claimed it. Returns whether it was withdrawn.
     */
    public boolean withdraw(ParkedPoll poll) {
        return claims.withdraw(poll);
    }

    /** Id of the newest event of {@code topic} read here, 0 before the first (or when the hub does not hold it). */
    public long lastId(String topic) {
        lock.lock();
        try {
            Topic held = topics.get(topic);
            return held == null ? 0 : held.history().lastId();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes sure the hub holds every one of {@code names} (distinct) before events are published on them, creating those
     * it does not hold; false, creating none, when they would be more than it may hold (the publish is then refused).
     * Marks the topics used.
     */
    public boolean admitTopics(List<String> names) {
        lock.lock();
        try {
            return topics.useAll(names, now());
        } finally {
            lock.unlock();
        }
    }

    /** Receives the next event from the source: records it and answers the polls its topic's event takes. */
    @Override
    public void accept(Event event) {
        acceptAll(List.of(event));
    }

    /**
     * Receives events published together: records each in its topic's ring, then answers the polls they take in one
     * batch, each poll once with the news of all its topics (a poll on several of their topics is not answered once per
     * event, then again after each re-poll), and hands each standing poll the events of each of its topics.
     */
    @Override
    public void acceptAll(List<Event> events) {
        long arrivedNanos = now();
        List<ParkedPoll> batch = new ArrayList<>();
        FollowedEvents followed = new FollowedEvents();
        Set<String> startedOver = Set.of(); // a set of its own only when a ring starts over (rare)
        int[] takenPerEvent = new int[events.size()];
        int appended = 0;
        lock.lock();
        try {
            for (Event event : events) {
                Topic topic = topics.get(event.topic());
                String epochBefore = topic == null ? null : topic.history().epoch();
                if (topic == null || !topic.history().append(event)) {
                    continue; // a topic this hub no longer holds, or a redelivered or out-of-order event
                }
                topic.used(arrivedNanos);
                // A shared stream recreated (new epoch): the ring started over, and every poll parked on it is answered
                // missed, whatever its cursor, which counted in the old history.
                boolean restarted = topic.history().startedOverSince(epochBefore);
                if (restarted) {
                    startedOver = new HashSet<>(startedOver);
                    startedOver.add(topic.name());
                }
                Collection<ParkedPoll> taken = topics.takeAnswered(topic, restarted ? Long.MAX_VALUE : event.id());
                takenPerEvent[appended++] = taken.size() + followed.appended(topic, event, restarted);
                batch.addAll(taken);
            }
            if (appended > 0) {
                blockingWaits.signalNews();
            }
        } finally {
            lock.unlock();
        }
        metrics.epochRestarts.mark(startedOver.size());
        metrics.published.mark(appended);
        for (int e = 0; e < appended; e++) {
            metrics.batchSize.update(takenPerEvent[e]);
        }
        if (!batch.isEmpty() || followed.offers() > 0) {
            Set<String> ringsStartedOver = startedOver;
            Runnable answer = () -> batches.answer(batch, followed, arrivedNanos, ringsStartedOver);
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
    public void poll(Delivery delivery, List<TopicCursor> asked, long timeoutMs) {
        ParkedPoll poll = new ParkedPoll(delivery, claims, asked);
        delivery.attach(poll);
        deadlines.add(poll, timeoutMs);
        place(poll, Map.of(), archived != null);
    }

    /**
     * Places a standing poll for a client that stays subscribed (an event stream, a socket): placed as {@link #poll}
     * places one (news at once, after which the transport follows again from its new cursors; a refusal), but once
     * parked it stays: each later event of its topics is handed to {@link Follower#follow}, from the dispatcher, in
     * order, and every {@code heartbeatMs} it is told it still stands ({@link Delivery#expire}). It ends when the
     * transport withdraws it ({@link #withdraw}), its request fails, or the server stops.
     */
    public void follow(Follower follower, List<TopicCursor> asked, long heartbeatMs) {
        metrics.follows.mark();
        ParkedPoll poll = new ParkedPoll(follower, heartbeatMs, claims, asked);
        follower.attach(poll);
        deadlines.add(poll, heartbeatMs);
        place(poll, Map.of(), archived != null);
    }

    /** Expires every poll whose deadline has passed; called every {@link #DEADLINE_SLOT_MS}. Returns how many passed. */
    public int expireDue() {
        return deadlines.expireDue(claims::timedOut);
    }

    /** Drops the topics nobody has used for {@code idleNanos} (no parked poll, blocked thread or event); returns how many. */
    public int evictIdleTopics(long idleNanos) {
        Map<String, Long> evicted = new HashMap<>();
        lock.lock();
        try {
            topics.evictIdle(now(), idleNanos).forEach(topic -> evicted.put(topic.name(), topic.history().lastId()));
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
     * The server is stopping: refuses new polls, wakes the blocking waiters, and hands over every parked poll, once,
     * for {@code StopAnsweringParkedPolls} to answer.
     */
    public Collection<ParkedPoll> closeAndTakeParked() {
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

    /**
     * Answers, refuses or parks {@code poll}. {@code fromArchive}: what the archive said about some of its topics;
     * {@code mayAskArchive}: whether a cursor a ring cannot answer goes to the archive (false once it has been asked,
     * or without one).
     */
    private void place(ParkedPoll poll, Map<String, ArchiveAnswer> fromArchive, boolean mayAskArchive) {
        Placement placement;
        lock.lock();
        try {
            placement = read(poll, fromArchive, mayAskArchive);
        } finally {
            lock.unlock();
        }
        if (placement instanceof Placement.News news) {
            poll.delivery().offer(newsJson.of(news.answer()), () -> claims.claim(poll, PollClaims.Own.AT_ONCE));
        } else if (placement instanceof Placement.AskArchive ask) {
            archived.ask(ask.cursors(), fromArchive, answers -> place(poll, answers, false));
        } else if (placement instanceof Placement.Refused refused) {
            poll.delivery().offer(refused.answer(), () -> claims.claim(poll, PollClaims.Own.AT_ONCE));
        }
    }

    /** Takes a claimed poll out of the parked polls of each of its topics (an event or the stop may have already). */
    private void leaveTopics(ParkedPoll poll) {
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

    /** The dispatcher's reading of the histories for a poll of a batch, under the lock. */
    private BatchAnswers.Reading readForBatch(List<TopicCursor> cursors, Set<String> startedOver, boolean archived) {
        lock.lock();
        try {
            return BatchAnswers.read(topics, cursors, startedOver, archived);
        } finally {
            lock.unlock();
        }
    }

    /** With the lock held (BlockingWaits calls it under it): the topic named {@code name}, created when new. */
    @GuardedBy("lock")
    private Topic useTopic(String name) {
        return topics.use(name, now());
    }

    /** With the lock held: the stop turns the poll away, else the placer decides. */
    @GuardedBy("lock")
    private Placement read(ParkedPoll poll, Map<String, ArchiveAnswer> fromArchive, boolean mayAskArchive) {
        if (closed) {
            metrics.shutdownTurnedAway.mark();
            return new Placement.Refused(new Answer.Closing(settings.shutdownSpread().nextRetryAfter()));
        }
        return placer.place(topics, poll, fromArchive, mayAskArchive, now());
    }

    private long now() {
        return settings.nanoClock().getAsLong();
    }
}
