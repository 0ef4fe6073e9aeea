package com.example.threading.events.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.testing.Interleavings;
import io.opentelemetry.context.Context;
import java.util.List;
import java.util.function.BiConsumer;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * {@link Sockets}' places with {@link EventSocket}'s flags over every interleaving Lincheck's model checker explores (up
 * to its bound of {@value #INVOCATIONS} interleavings): a bound of one, one socket upgraded and never opened (an
 * HTTP/2 stream reset between the upgrade's answer and the open), and three threads as Jetty and the service have
 * them: its close, its error, and the sweep past the open timeout. The place comes back exactly once: afterwards
 * exactly one place is free, and nothing is counted open. The scenario fails on a seeded bug: a sweep that gives the
 * place back without asking the socket whether it is still to be given up (its flags decide between the sweep and the
 * close).
 */
class SocketsLincheckTest {

    private static final int INVOCATIONS = 500;
    private static final long OPEN_TIMEOUT_NANOS = 1_000;

    @Test
    void aSocketThatNeverOpenedGivesItsPlaceBackOnce() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> scenario((sockets, now) -> sockets.sweep(now)));
    }

    @Test
    void aSweepThatDoesNotAskTheSocketIsCaught() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS, () -> scenario((sockets, now) -> {
            sockets.release(); // the seeded bug: the place given back whatever the socket's flags say
        })))
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(caught -> assertThat(caught.getMessage()).contains("places free"));
    }

    /** One interleaving of the close, the error and the sweep (as {@code sweep} does it), then the contract. */
    private static void scenario(BiConsumer<Sockets, Long> sweep) {
        Sockets sockets = new Sockets(1, Long.MAX_VALUE, Long.MAX_VALUE, OPEN_TIMEOUT_NANOS);
        EventSocket.Shared with = new EventSocket.Shared(null, null, null, null, sockets, null, null, null, Runnable::run,
                60_000, 1, 1_024, 10, () -> 0L);
        if (!sockets.tryOpen()) {
            throw new AssertionError("no place for the first socket");
        }
        EventSocket socket = new EventSocket(with, null, null, List.of(), 0, Long.MAX_VALUE, Context.root());
        sockets.upgraded(socket);
        Interleavings.onThreads(List.of(
                () -> socket.onWebSocketClose(1001, "gone"),
                () -> socket.onWebSocketError(new IllegalStateException("stream reset")),
                () -> sweep.accept(sockets, OPEN_TIMEOUT_NANOS + 1)));
        if (sockets.openCount() != 0) {
            throw new AssertionError(sockets.openCount() + " sockets counted open");
        }
        int free = 0;
        while (free < 3 && sockets.tryOpen()) {
            free++;
        }
        if (free != 1) {
            throw new AssertionError(free + " places free at the end, with a bound of one");
        }
    }
}
