package com.example.threading.events.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.events.stream.Event;
import com.example.threading.testing.Interleavings;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * {@link EventHistory} under its guard over every interleaving Lincheck's model checker explores (up to its bound of
 * {@value #INVOCATIONS} interleavings): a ring of two, holding event 1 of epoch {@code a}; one thread appends events 2
 * and 3 (wrapping the ring), another an event 1 of epoch {@code b} (the shared stream recreated: the ring starts over),
 * and a reader reads after cursor 0 twice, each step in its own hold of the guard, as the hub's publishes and polls
 * are. Every read is a run of the topic in order: ids one apart, ending at the batch's {@code lastId}, from id 1 unless
 * the batch says {@code missed}, every event of the batch's epoch (never torn between two). The scenario fails on a
 * seeded bug: the lock removed ({@link UnlockedGuardFixture}, which also passes the history's own check).
 */
class EventHistoryLincheckTest {

    private static final int INVOCATIONS = 500;
    /** What each failed check says first. */
    private static final String BROKEN = "the history's contract broken: ";
    /** Made once, outside the checked scenarios. */
    private static final JsonNode DATA = NullNode.getInstance();

    @Test
    void aReaderUnderTheGuardSeesARunOfOneEpochInOrder() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> scenario(() -> new ReentrantLock()));
    }

    @Test
    void theLockRemovedIsCaught() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS, () -> scenario(() -> new UnlockedGuardFixture())))
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(caught -> assertThat(caught.getMessage()).contains(BROKEN));
    }

    /** One interleaving of the appends, the start-over and the two reads, then each read's check. */
    private static void scenario(Supplier<ReentrantLock> guards) {
        ReentrantLock guard = guards.get();
        EventHistory history = new EventHistory(2, guard, null);
        Event first = event(1, "a");
        Event second = event(2, "a");
        Event third = event(3, "a");
        Event recreated = event(1, "b");
        held(guard, () -> history.append(first));
        List<EventBatch> reads = new CopyOnWriteArrayList<>();
        Interleavings.onThreads(List.of(
                () -> held(guard, () -> history.append(recreated)),
                () -> {
                    held(guard, () -> history.append(second));
                    held(guard, () -> history.append(third));
                },
                () -> {
                    held(guard, () -> reads.add(history.after(0)));
                    held(guard, () -> reads.add(history.after(0)));
                }));
        for (EventBatch read : reads) {
            check(read);
        }
    }

    /** The batch after cursor 0 is a run of one epoch, in order, up to its lastId, whole unless it says missed. */
    private static void check(EventBatch read) {
        List<Event> events = read.events();
        for (int i = 0; i < events.size(); i++) {
            Event event = events.get(i);
            if (!event.epoch().equals(read.epoch())) {
                throw new AssertionError(BROKEN + "a torn read: event " + event.id() + " of epoch " + event.epoch()
                        + " in a batch of epoch " + read.epoch());
            }
            if (i > 0 && event.id() != events.get(i - 1).id() + 1) {
                throw new AssertionError(BROKEN + "a read out of order or with a hole: " + ids(events));
            }
        }
        if (!events.isEmpty() && events.get(events.size() - 1).id() != read.lastId()) {
            throw new AssertionError(BROKEN + "a read that stops short of its lastId " + read.lastId() + ": " + ids(events));
        }
        if (!read.missed() && (events.isEmpty() || events.get(0).id() != 1)) {
            throw new AssertionError(BROKEN + "a read that lost events without saying missed: " + ids(events));
        }
    }

    private static List<Long> ids(List<Event> events) {
        return events.stream().map(Event::id).toList();
    }

    private static void held(ReentrantLock guard, Runnable step) {
        guard.lock();
        try {
            step.run();
        } finally {
            guard.unlock();
        }
    }

    private static Event event(long id, String epoch) {
        return new Event(id, "room", Instant.EPOCH, DATA, epoch);
    }
}
