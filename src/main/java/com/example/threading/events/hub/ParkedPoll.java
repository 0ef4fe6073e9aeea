package com.example.threading.events.hub;

import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.stream.TopicNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One poll held until its answer, with the topics it asked for and, once parked, the cursor it reads after on each of
 * them; its answer goes out through its transport's {@link Delivery}. A standing poll ({@link #standing}, a
 * {@link Follower}'s) stays parked across events until it is claimed: the hub hands it each event instead. It knows
 * the hub only as its {@link ParkingLot}: the place to report that the transport ended its wait (failure, or a
 * transport timeout where one is set) or completed it.
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>Answerers: the batch of an event (its write callback, on a Jetty thread), the hub's deadline sweep (its
 *       own thread), the transport's failure callback, the hub answering at once, and the shutdown may all try to answer the
 *       same poll, from any threads. {@link #claim} lets exactly one of them win: one compare-and-set on one atomic state.</li>
 *   <li>The hub's parked count: {@link #markParked} (NEW to PARKED) and {@link #claim} move the same state, so
 *       exactly one claim returns {@link Claim#WAS_PARKED} for a poll that {@code markParked} counted, and none
 *       for a poll claimed before it was parked ({@code markParked} then returns false and the hub does not count
 *       it): the count goes down exactly once for every poll that went up.</li>
 *   <li>Watchers: {@link #watch} and {@link #completed} hand over through one atomic reference, so a watcher is
 *       told about the completion exactly once, whichever comes first. The winning answerer is written (volatile)
 *       right after its claim, before it writes the answer, so {@code completed} sees it.</li>
 *   <li>{@code cursors} is written by {@link #markParked} under the hub's lock, before the poll enters any topic's
 *       parked polls, and read by the dispatcher after the batch was taken out under the same lock (and by a standing
 *       poll's transport on the thread the dispatcher hands its news to).</li>
 * </ul>
 * {@code ParkedPollTest} checks it on real threads, claims racing each other and the parking and a watch racing the
 * completion; {@code PollClaimsLincheckTest} over the interleavings of the parking, a batch, the deadline and a
 * failure.
 */
public final class ParkedPoll {

    private static final int NEW = 0;
    private static final int PARKED = 1;
    private static final int CLAIMED = 2;
    private static final Object COMPLETED = new Object();

    /**
     * Where a poll is parked (the hub): told when the transport ends the poll's wait without an answer, on the
     * transport's thread (Jetty's, running the request's async listener).
     */
    interface ParkingLot {
        /** The poll's deadline passed (the hub's sweep, or a container timeout): answer it (204) unless someone else has claimed it. */
        void timedOut(ParkedPoll poll);

        /** The poll's request failed (client reset or closed the stream, connection failure): free its place. */
        void failed(ParkedPoll poll, Throwable failure);

        /** The poll's request is complete, however it was answered: forget its deadline. */
        void completed(ParkedPoll poll);
    }

    /**
     * Who takes the right to answer a poll with {@link #claim}: the batch of an event, the shutdown, or the hub's
     * own answers (at once, at the timeout, after a failure).
     */
    interface Answerer {
    }

    /** An answerer that is told when a poll it watches is complete, however it was answered. */
    public interface Watcher extends Answerer {
        /** {@code byWatcher}: the poll was answered by this watcher's claim (not by its timeout, a failure or shutdown). */
        void completed(boolean byWatcher);
    }

    private final Delivery delivery;
    private final boolean standing;
    private final long heartbeatMs;
    private final ParkingLot lot;
    private final List<TopicCursor> asked;
    private final boolean sentEpochs;
    private final AtomicInteger state = new AtomicInteger(NEW);
    private final AtomicReference<Object> watcher = new AtomicReference<>();
    private volatile Answerer claimedBy;
    private Map<String, Long> cursors = Map.of();
    /** The slot of {@link PollDeadlines} this poll's deadline is in: written before the poll is added, read by any thread. */
    private volatile long deadlineSlot;

    /** A poll of the default topic's next event. */
    ParkedPoll(Delivery delivery, ParkingLot lot) {
        this(delivery, lot, List.of(new TopicCursor(TopicNames.DEFAULT, null)));
    }

    /** A poll of {@code asked}: one topic, or several (then answered with every topic's cursor). */
    ParkedPoll(Delivery delivery, ParkingLot lot, List<TopicCursor> asked) {
        this(delivery, false, 0, lot, asked);
    }

    /** A standing poll of {@code asked}, told every {@code heartbeatMs} that it still stands ({@link Delivery#expire}). */
    ParkedPoll(Follower follower, long heartbeatMs, ParkingLot lot, List<TopicCursor> asked) {
        this(follower, true, heartbeatMs, lot, asked);
    }

    private ParkedPoll(Delivery delivery, boolean standing, long heartbeatMs, ParkingLot lot, List<TopicCursor> asked) {
        this.delivery = delivery;
        this.standing = standing;
        this.heartbeatMs = heartbeatMs;
        this.lot = lot;
        this.asked = List.copyOf(asked);
        this.sentEpochs = asked.stream().anyMatch(cursor -> cursor.epoch() != null);
    }

    /** How this poll's answer reaches its client. */
    public Delivery delivery() {
        return delivery;
    }

    /** Whether it stays parked across events (a {@link Follower}'s), until it is claimed. */
    boolean standing() {
        return standing;
    }

    /** A standing poll's transport, handed each event of its topics (only a standing poll has one). */
    Follower follower() {
        return (Follower) delivery;
    }

    /** A standing poll's heartbeat period. */
    long heartbeatMs() {
        return heartbeatMs;
    }

    /** Claimed by an answerer: nothing else answers it, and a standing poll takes no more events. */
    boolean claimed() {
        return state.get() == CLAIMED;
    }

    /** Parked and not claimed: a standing poll that still takes events. */
    boolean stands() {
        return state.get() == PARKED;
    }

    /** The topics and cursors as the request gave them. */
    List<TopicCursor> asked() {
        return asked;
    }

    /** Whether the request sent an epoch with any of its cursors (most do not: their answer depends on the cursors only). */
    boolean sentEpochs() {
        return sentEpochs;
    }

    /** Whether the request named several topics (its answer carries {@code cursors}, not {@code lastId}). */
    boolean severalTopics() {
        return asked.size() > 1;
    }

    /** The cursor it reads after on {@code topic}, as parked. */
    long cursor(String topic) {
        return cursors.get(topic);
    }

    /**
     * Where it reads now, with the epochs it asked in: what an event's batch answers it after (and what it asks the archive
     * again, when a burst outran its ring).
     */
    List<TopicCursor> cursorsNow() {
        List<TopicCursor> now = new ArrayList<>(asked.size());
        asked.forEach(was -> now.add(new TopicCursor(was.topic(), cursors.get(was.topic()), was.epoch())));
        return now;
    }

    /** The cursor on each of its topics, as parked (in the order asked). */
    public Map<String, Long> cursors() {
        return cursors;
    }

    long deadlineSlot() {
        return deadlineSlot;
    }

    void deadlineSlot(long slot) {
        deadlineSlot = slot;
    }

    /**
     * Moves a new poll to parked, reading after {@code cursors} (one per topic asked); false if it was claimed
     * meanwhile (e.g. by its timeout).
     */
    boolean markParked(Map<String, Long> cursors) {
        this.cursors = cursors;
        return state.compareAndSet(NEW, PARKED);
    }

    /**
     * Takes the right to answer this poll for {@code answerer}. Returns {@link Claim#LOST} if someone else has it,
     * {@link Claim#WAS_PARKED} if it was counted as parked, {@link Claim#WAS_NEW} otherwise.
     */
    Claim claim(Answerer answerer) {
        while (true) {
            int current = state.get();
            if (current == CLAIMED) {
                return Claim.LOST;
            }
            if (state.compareAndSet(current, CLAIMED)) {
                claimedBy = answerer;
                return current == PARKED ? Claim.WAS_PARKED : Claim.WAS_NEW;
            }
        }
    }

    /** Outcome of {@link #claim}. */
    enum Claim {
        LOST, WAS_NEW, WAS_PARKED
    }

    /** Asks to be told when the request completes; false if it already has (then nothing will be told). */
    public boolean watch(Watcher completion) {
        return watcher.compareAndSet(null, completion);
    }

    /** The transport's own timeout fired (where one is set; the hub's deadline is the usual one). */
    public void timedOut() {
        lot.timedOut(this);
    }

    /** The request failed (client reset or closed the stream, connection failure). */
    public void failed(Throwable failure) {
        lot.failed(this, failure);
    }

    /** The request is complete, however it was answered: tells the lot and the watcher, once. */
    public void completed() {
        lot.completed(this);
        Object previous = watcher.getAndSet(COMPLETED);
        if (previous instanceof Watcher completion) {
            completion.completed(claimedBy == completion);
        }
    }
}
