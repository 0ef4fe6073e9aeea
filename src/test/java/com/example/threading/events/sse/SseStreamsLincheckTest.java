package com.example.threading.events.sse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.Meter;
import com.example.threading.testing.Interleavings;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * {@link SseStreams}' places over every interleaving Lincheck's model checker explores (up to its bound of
 * {@value #INVOCATIONS} interleavings): a bound of one stream and three requests, each on a thread of its own. One
 * stream starts and completes; one starts and is told of its completion twice (Jetty's {@code onComplete} after an
 * {@code onError}); one takes a place and gives it back without starting. Never two places taken at once; at the end
 * no stream is open and exactly one place is free. The scenario fails on a seeded bug: a place given back on every
 * completion told, not once per stream ({@link SseStreamsBackOnEveryCloseFixture}).
 */
class SseStreamsLincheckTest {

    private static final int INVOCATIONS = 500;
    /** Made once, outside the checked scenarios. */
    private static final Meter WRITTEN = new Meter();

    /** What the scenario drives: SseStreams, or a seeded variant of it. */
    interface Places {
        boolean tryOpen();

        void release();

        void started(SseStream stream);

        void closed(SseStream stream);

        int openCount();
    }

    @Test
    void neverMoreStreamsThanTheBoundAndEachPlaceBackOnce() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> scenario(() -> new Real(new SseStreams(1, 1_000, Long.MAX_VALUE, Long.MAX_VALUE))));
    }

    @Test
    void aPlaceGivenBackOnEveryCompletionIsCaught() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS, () -> scenario(() -> new SseStreamsBackOnEveryCloseFixture(1))))
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(caught -> assertThat(caught.getMessage()).contains("places free"));
    }

    /** The real places, as the scenario drives them; the fixture changes one method. */
    static class Real implements Places {
        final SseStreams streams;

        Real(SseStreams streams) {
            this.streams = streams;
        }

        @Override
        public boolean tryOpen() {
            return streams.tryOpen();
        }

        @Override
        public void release() {
            streams.release();
        }

        @Override
        public void started(SseStream stream) {
            streams.started(stream);
        }

        @Override
        public void closed(SseStream stream) {
            streams.closed(stream);
        }

        @Override
        public int openCount() {
            return streams.openCount();
        }
    }

    /** One interleaving of the three requests, then the contract. */
    private static void scenario(Supplier<Places> made) {
        Places places = made.get();
        SseStream once = stream();
        SseStream twice = stream();
        AtomicInteger holding = new AtomicInteger();
        Interleavings.onThreads(List.of(
                () -> {
                    if (places.tryOpen()) {
                        hold(holding);
                        places.started(once);
                        holding.decrementAndGet();
                        places.closed(once);
                    }
                },
                () -> {
                    if (places.tryOpen()) {
                        hold(holding);
                        places.started(twice);
                        holding.decrementAndGet();
                        places.closed(twice);
                        places.closed(twice);
                    }
                },
                () -> {
                    if (places.tryOpen()) {
                        hold(holding);
                        holding.decrementAndGet();
                        places.release();
                    }
                }));
        if (places.openCount() != 0) {
            throw new AssertionError(places.openCount() + " streams open after every request completed");
        }
        int free = 0;
        while (free < 3 && places.tryOpen()) {
            free++;
        }
        if (free != 1) {
            throw new AssertionError(free + " places free at the end, with a bound of one");
        }
    }

    private static void hold(AtomicInteger holding) {
        if (holding.incrementAndGet() > 1) {
            throw new AssertionError("two places taken at once with a bound of one");
        }
    }

    /** A stream that is only registered and told of its completion here: no request, no hub. */
    private static SseStream stream() {
        return new SseStream(null, new SseOutput(null, null, 1_000, () -> 0L, WRITTEN), List.of(), 0, 0, 0);
    }
}
