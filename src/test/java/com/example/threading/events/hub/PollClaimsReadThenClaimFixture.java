package com.example.threading.events.hub;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * {@link PollClaims} (its non-standing paths) with a seeded bug, for {@link PollClaimsLincheckTest}: whether the poll
 * was parked is read ({@link ParkedPoll#stands}) before the claim instead of taken from the claim's own outcome, so
 * the parking can slip in between; the count then never comes down for that poll, and the poll stays in its topics.
 */
final class PollClaimsReadThenClaimFixture implements PollClaimsLincheckTest.Claims {

    private final AtomicInteger parkedCount = new AtomicInteger();
    private final Consumer<ParkedPoll> leaveTopics;

    PollClaimsReadThenClaimFixture(Consumer<ParkedPoll> leaveTopics) {
        this.leaveTopics = leaveTopics;
    }

    @Override
    public void parked() {
        parkedCount.incrementAndGet();
    }

    @Override
    public int parkedCount() {
        return parkedCount.get();
    }

    @Override
    public boolean claim(ParkedPoll poll, ParkedPoll.Answerer answerer) {
        boolean wasParked = poll.stands(); // the seeded bug: a read, then the claim
        boolean won = poll.claim(answerer) != ParkedPoll.Claim.LOST;
        if (won && wasParked) {
            parkedCount.decrementAndGet();
        }
        return won;
    }

    @Override
    public void timedOut(ParkedPoll poll) {
        if (claimAndLeave(poll, PollClaims.Own.TIMEOUT)) {
            poll.delivery().expire();
        }
    }

    @Override
    public void failed(ParkedPoll poll, Throwable failure) {
        if (claimAndLeave(poll, PollClaims.Own.FAILURE)) {
            poll.delivery().abandon();
        }
    }

    @Override
    public void completed(ParkedPoll poll) {
    }

    private boolean claimAndLeave(ParkedPoll poll, PollClaims.Own answer) {
        boolean wasParked = poll.stands();
        boolean won = poll.claim(answer) != ParkedPoll.Claim.LOST;
        if (won && wasParked) {
            parkedCount.decrementAndGet();
            leaveTopics.accept(poll);
        }
        return won;
    }
}
