package com.example.threading.events.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.events.stream.TopicNames;
import com.example.threading.testing.Interleavings;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * The poll's claim ({@link PollClaims} over {@link ParkedPoll}) over every interleaving Lincheck's model checker
 * explores (up to its bound of {@value #INVOCATIONS} interleavings): one poll, and four threads as the hub has them,
 * the parking (move it to parked and count it, as the hub does under its lock), an event's batch (a claim), the
 * deadline sweep ({@code timedOut}) and the request's failure ({@code failed}). Exactly one answerer wins; the parked
 * count is back at zero; the poll is taken out of its topics once if it was parked and a timeout or failure won it,
 * never otherwise (the batch takes its own polls out). The scenario fails on a seeded bug: the count decided by a
 * read of the state before the claim ({@link PollClaimsReadThenClaimFixture}), so the parking can slip in between.
 */
class PollClaimsLincheckTest {

    private static final int INVOCATIONS = 500;
    /** Made once, outside the checked scenarios: building a registry is not what is checked (and its map's resize reads as a livelock to the checker). */
    private static final HubMetrics METRICS = new HubMetrics(new MetricRegistry());

    /** An event's batch, as an answerer. */
    private enum Batch implements ParkedPoll.Answerer { EVENT }

    /** What the scenario drives: PollClaims, or a seeded variant of it. */
    interface Claims extends ParkedPoll.ParkingLot {
        void parked();

        boolean claim(ParkedPoll poll, ParkedPoll.Answerer answerer);

        int parkedCount();
    }

    @Test
    void exactlyOneAnswerWinsAndTheCountAndTopicsComeOutRight() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> scenario(leaveTopics -> real(leaveTopics)));
    }

    @Test
    void aCountDecidedByAReadBeforeTheClaimIsCaught() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS,
                () -> scenario(leaveTopics -> new PollClaimsReadThenClaimFixture(leaveTopics))))
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(caught -> assertThat(caught.getMessage()).contains("parked count"));
    }

    private static Claims real(Consumer<ParkedPoll> leaveTopics) {
        PollClaims claims = new PollClaims(leaveTopics, new PollDeadlines(100, () -> 0L), METRICS);
        return new Claims() {
            @Override
            public void parked() {
                claims.parked();
            }

            @Override
            public boolean claim(ParkedPoll poll, ParkedPoll.Answerer answerer) {
                return claims.claim(poll, answerer);
            }

            @Override
            public int parkedCount() {
                return claims.parkedCount();
            }

            @Override
            public void timedOut(ParkedPoll poll) {
                claims.timedOut(poll);
            }

            @Override
            public void failed(ParkedPoll poll, Throwable failure) {
                claims.failed(poll, failure);
            }

            @Override
            public void completed(ParkedPoll poll) {
                claims.completed(poll);
            }
        };
    }

    /** One interleaving of the four threads on one poll, then the contract. */
    private static void scenario(Function<Consumer<ParkedPoll>, Claims> made) {
        AtomicInteger left = new AtomicInteger();
        Claims claims = made.apply(poll -> left.incrementAndGet());
        CountingDelivery delivery = new CountingDelivery();
        ParkedPoll poll = new ParkedPoll(delivery, claims);
        boolean[] wasParked = {false};
        boolean[] batchWon = {false};
        Interleavings.onThreads(List.of(
                () -> {
                    if (poll.markParked(Map.of(TopicNames.DEFAULT, 1L))) { // as the hub does, under its lock
                        wasParked[0] = true;
                        claims.parked();
                    }
                },
                () -> batchWon[0] = claims.claim(poll, Batch.EVENT),
                () -> claims.timedOut(poll),
                () -> claims.failed(poll, new IOException("reset"))));
        int winners = (batchWon[0] ? 1 : 0) + delivery.expired.get() + delivery.abandoned.get();
        if (winners != 1) {
            throw new AssertionError(winners + " answerers won the poll");
        }
        if (claims.parkedCount() != 0) {
            throw new AssertionError("parked count " + claims.parkedCount() + " after the poll was claimed");
        }
        int expectedLeft = wasParked[0] && !batchWon[0] ? 1 : 0;
        if (left.get() != expectedLeft) {
            throw new AssertionError("taken out of its topics " + left.get() + " times, expected " + expectedLeft);
        }
    }
}
