package com.example.threading.events.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.testing.Interleavings;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * {@link InProcessEventStream} over every interleaving Lincheck's model checker explores (up to its bound of
 * {@value #INVOCATIONS} interleavings): two publishers of one event each and one of a batch of two, all on one topic,
 * each on a thread of its own. The subscriber (the hub) is never called on two threads at once; it sees ids 1 to 4,
 * each once, in order, a batch's events together; each publisher's stage holds the id the subscriber saw for its
 * event. The scenario fails on a seeded bug: the events numbered under the lock but handed over after it
 * ({@link InProcessEventStreamDeliverAfterUnlockFixture}).
 */
class InProcessEventStreamLincheckTest {

    private static final int INVOCATIONS = 500;
    /** What each failed check says first. */
    private static final String BROKEN = "the stream's contract broken: ";
    /** Made once, outside the checked scenarios. */
    private static final JsonNode DATA = NullNode.getInstance();
    private static final Clock CLOCK = Clock.fixed(Instant.EPOCH, ZoneOffset.UTC);

    @Test
    void theSubscriberSeesEachTopicsIdsOnceInOrderOnOneThreadAtATime() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> scenario(() -> new InProcessEventStream(CLOCK)));
    }

    @Test
    void eventsHandedOverAfterTheLockAreCaught() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS,
                () -> scenario(() -> new InProcessEventStreamDeliverAfterUnlockFixture(CLOCK))))
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(caught -> assertThat(caught.getMessage()).contains(BROKEN));
    }

    /** One interleaving of the three publishers, then the contract. */
    private static void scenario(Supplier<? extends EventSink> made) {
        EventSink sink = made.get();
        List<Long> seen = new CopyOnWriteArrayList<>();
        AtomicInteger inside = new AtomicInteger();
        ((EventSource) sink).subscribe(new EventSubscriber() {
            @Override
            public void accept(Event event) {
                enter();
                seen.add(event.id());
                inside.decrementAndGet();
            }

            @Override
            public void acceptAll(List<Event> events) {
                enter();
                events.forEach(event -> seen.add(event.id()));
                inside.decrementAndGet();
            }

            private void enter() {
                if (inside.incrementAndGet() != 1) {
                    throw new AssertionError(BROKEN + "the subscriber called on two threads at once");
                }
            }
        });
        long[] ids = new long[4];
        Interleavings.onThreads(List.of(
                () -> ids[0] = id(sink.publish("room", DATA)),
                () -> ids[1] = id(sink.publish("room", DATA)),
                () -> {
                    List<CompletionStage<Event>> two =
                            sink.publishAll(List.of(new NewEvent("room", DATA), new NewEvent("room", DATA)));
                    ids[2] = id(two.get(0));
                    ids[3] = id(two.get(1));
                }));
        if (!seen.equals(List.of(1L, 2L, 3L, 4L))) {
            throw new AssertionError(BROKEN + "the subscriber saw ids " + seen + ", not 1 to 4 in order");
        }
        if (ids[3] != ids[2] + 1) {
            throw new AssertionError(BROKEN + "a batch numbered " + ids[2] + " and " + ids[3]);
        }
        if (ids[0] == ids[1] || ids[0] == ids[2] || ids[1] == ids[2] || ids[0] == ids[3] || ids[1] == ids[3]) {
            throw new AssertionError(BROKEN + "an id given twice: " + Arrays.toString(ids));
        }
    }

    private static long id(CompletionStage<Event> stage) {
        return stage.toCompletableFuture().join().id();
    }
}
