package com.example.threading.events.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.testing.Interleavings;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * {@link PollDeadlines} over every interleaving Lincheck's model checker explores (up to its bound of
 * {@value #INVOCATIONS} interleavings): two request threads add a deadline each and a third removes one added before,
 * while the sweep expires what is due (every deadline is due at once: the clock stands still and each timeout is 0).
 * Then one more sweep, as the next slot's would. A deadline added is never lost: each added poll is handed to
 * {@code expire} at least once (at most twice: an add that raced with the sweep's take adds again). The removed poll
 * is handed over at most once, by a sweep that took its slot first. The scenario fails on a seeded bug: an add without
 * its second look at the map ({@link PollDeadlinesNoSecondLookFixture}), whose poll a sweep can take the set from under.
 */
class PollDeadlinesLincheckTest {

    private static final int INVOCATIONS = 500;

    /** What the scenario drives: PollDeadlines, or a seeded variant of it. */
    interface Deadlines {
        void add(ParkedPoll poll, long timeoutMs);

        void remove(ParkedPoll poll);

        int expireDue(Consumer<ParkedPoll> expire);
    }

    @Test
    void aDeadlineAddedWhileTheSweepRunsIsNeverLost() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> scenario(() -> real(new PollDeadlines(100, () -> 0L))));
    }

    @Test
    void anAddWithoutItsSecondLookIsCaught() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS,
                () -> scenario(() -> new PollDeadlinesNoSecondLookFixture(100, () -> 0L))))
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(caught -> assertThat(caught.getMessage()).contains("lost"));
    }

    private static Deadlines real(PollDeadlines deadlines) {
        return new Deadlines() {
            @Override
            public void add(ParkedPoll poll, long timeoutMs) {
                deadlines.add(poll, timeoutMs);
            }

            @Override
            public void remove(ParkedPoll poll) {
                deadlines.remove(poll);
            }

            @Override
            public int expireDue(Consumer<ParkedPoll> expire) {
                return deadlines.expireDue(expire);
            }
        };
    }

    /** One interleaving of the two adds, the remove and the sweep, then the next sweep and the contract. */
    private static void scenario(Supplier<Deadlines> made) {
        Deadlines deadlines = made.get();
        ParkedPoll first = poll();
        ParkedPoll second = poll();
        ParkedPoll removed = poll();
        deadlines.add(removed, 0);
        Map<ParkedPoll, AtomicInteger> handed = new ConcurrentHashMap<>();
        Consumer<ParkedPoll> expire = poll -> handed.computeIfAbsent(poll, p -> new AtomicInteger()).incrementAndGet();
        Interleavings.onThreads(List.of(
                () -> deadlines.add(first, 0),
                () -> deadlines.add(second, 0),
                () -> deadlines.remove(removed),
                () -> deadlines.expireDue(expire)));
        deadlines.expireDue(expire);
        for (ParkedPoll added : List.of(first, second)) {
            int times = handed.getOrDefault(added, new AtomicInteger()).get();
            if (times < 1 || times > 2) {
                throw new AssertionError(times == 0 ? "a deadline was lost: its poll never expired"
                        : "a poll was handed to expire " + times + " times");
            }
        }
        int removedTimes = handed.getOrDefault(removed, new AtomicInteger()).get();
        if (removedTimes > 1) {
            throw new AssertionError("the removed poll was handed to expire " + removedTimes + " times");
        }
    }

    /** A poll of the default topic; the scenario's {@code expire} counts it and claims nothing. */
    private static ParkedPoll poll() {
        return new ParkedPoll(new CountingDelivery(), new NoLot());
    }

    private static final class NoLot implements ParkedPoll.ParkingLot {
        @Override
        public void timedOut(ParkedPoll poll) {
            throw new AssertionError("the scenario's expire counts; it does not call the lot");
        }

        @Override
        public void failed(ParkedPoll poll, Throwable failure) {
            throw new AssertionError("no request fails in this scenario");
        }

        @Override
        public void completed(ParkedPoll poll) {
        }
    }
}
