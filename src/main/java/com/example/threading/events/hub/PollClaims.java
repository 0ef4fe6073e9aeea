package com.example.threading.events.hub;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who answers a poll, and how many polls are parked. Every answerer — an event's batch, the hub at once, the deadline
 * sweep, a failure, the shutdown — takes a poll with one {@link #claim}; exactly one wins, and the parked count goes
 * down once for every poll that {@link #parked} counted. As every poll's {@link ParkedPoll.ParkingLot} it answers the
 * poll's deadline ({@link Delivery#expire}) and its failure ({@link Delivery#abandon}), each after winning the claim
 * and taking the poll out of its topics.
 *
 * <p>Thread-safety: any thread may call any method. A claim is one compare-and-set on the poll
 * ({@link ParkedPoll#claim}) and never takes a lock; the hub takes an expired or failed poll out of its topics' parked
 * polls under its own lock ({@code leaveTopics}). {@code PollClaimsLincheckTest} checks it over the interleavings of
 * the parking, a batch, the deadline and a failure; {@code ParkedPollTest} on real threads.
 */
final class PollClaims implements ParkedPoll.ParkingLot {

    private static final Logger LOG = LoggerFactory.getLogger(PollClaims.class);

    /** The hub's own answerers, as opposed to an event's batch or the shutdown. */
    enum Own implements ParkedPoll.Answerer {
        /** The poll's cursors had news, the hub was full or stopping: answered without parking. */
        AT_ONCE,
        /** The poll's deadline passed (the hub's sweep, or a transport timeout where one is set). */
        TIMEOUT,
        /** The request failed: completed without an answer. */
        FAILURE,
        /** The transport ended the poll itself (an event stream closed while its poll was parked): no answer. */
        WITHDRAWN
    }

    private final AtomicInteger parkedCount = new AtomicInteger();
    private final Consumer<ParkedPoll> leaveTopics;
    private final PollDeadlines deadlines;
    private final HubMetrics metrics;

    /**
     * Claims on the hub's parked polls, whose deadlines are in {@code deadlines}; {@code leaveTopics} takes a claimed
     * poll out of the parked polls of its topics.
     */
    PollClaims(Consumer<ParkedPoll> leaveTopics, PollDeadlines deadlines, HubMetrics metrics) {
        this.leaveTopics = leaveTopics;
        this.deadlines = deadlines;
        this.metrics = metrics;
    }

    /** Polls parked and not yet claimed. */
    int parkedCount() {
        return parkedCount.get();
    }

    /** A poll was parked (its state moved to parked): counted until it is claimed. */
    void parked() {
        parkedCount.incrementAndGet();
    }

    /** Takes the right to answer {@code poll} for {@code answerer}; false if someone else has it. */
    boolean claim(ParkedPoll poll, ParkedPoll.Answerer answerer) {
        ParkedPoll.Claim claim = poll.claim(answerer);
        if (claim == ParkedPoll.Claim.WAS_PARKED) {
            parkedCount.decrementAndGet();
        }
        return claim != ParkedPoll.Claim.LOST;
    }

    /**
     * The poll's deadline passed: "nothing new", unless the poll is already being answered. A standing poll is not
     * claimed: it is told it still stands (a heartbeat), and its next deadline is set.
     */
    @Override
    public void timedOut(ParkedPoll poll) {
        if (poll.standing()) {
            if (!poll.claimed()) {
                deadlines.add(poll, poll.heartbeatMs());
                poll.delivery().expire();
            }
            return;
        }
        if (claimAndLeave(poll, Own.TIMEOUT)) {
            metrics.timeouts.mark();
            poll.delivery().expire();
        }
    }

    /** The request failed (client reset or closed the stream, connection failure): free its place. */
    @Override
    public void failed(ParkedPoll poll, Throwable failure) {
        if (claimAndLeave(poll, Own.FAILURE)) {
            metrics.disconnects.mark();
            LOG.debug("parked poll failed", failure);
            poll.delivery().abandon();
        }
    }

    /**
     * The transport ends {@code poll} itself, without an answer (an event stream ending while its poll is parked): takes
     * it out of its topics unless someone else has claimed it. Returns whether it was withdrawn.
     */
    boolean withdraw(ParkedPoll poll) {
        return claimAndLeave(poll, Own.WITHDRAWN);
    }

    /** The poll is complete, however it was answered: its deadline is no longer needed. */
    @Override
    public void completed(ParkedPoll poll) {
        deadlines.remove(poll);
    }

    /** Claims a poll for its timeout or failure, taking it out of the parked polls of each of its topics. */
    private boolean claimAndLeave(ParkedPoll poll, Own answer) {
        ParkedPoll.Claim claim = poll.claim(answer);
        if (claim == ParkedPoll.Claim.LOST) {
            return false;
        }
        if (poll.standing()) {
            deadlines.remove(poll); // its heartbeats end with it
        }
        if (claim == ParkedPoll.Claim.WAS_PARKED) {
            parkedCount.decrementAndGet();
            leaveTopics.accept(poll);
        }
        return true;
    }
}
