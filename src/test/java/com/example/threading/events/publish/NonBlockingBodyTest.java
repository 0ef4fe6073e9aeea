package com.example.threading.events.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link NonBlockingBody} with the test playing Jetty's read callbacks: bytes in pieces, too many, an early end, a deadline. */
class NonBlockingBodyTest {

    private final AtomicInteger inFlight = new AtomicInteger();

    @Test
    void aBodyInPiecesIsAssembledAndCountedOutOnce() throws Exception {
        ScriptedInput in = new ScriptedInput();
        CompletableFuture<byte[]> body = NonBlockingBody.read(in, 11, 100, 30_000, inFlight);
        assertThat(inFlight).hasValue(1);

        in.arrive("{\"a\":").dataAvailable();
        assertThat(body).isNotDone();
        in.arrive("[1,2]}").dataAvailable();
        in.end();

        assertThat(new String(body.get(1, TimeUnit.SECONDS), StandardCharsets.UTF_8)).isEqualTo("{\"a\":[1,2]}");
        assertThat(inFlight).hasValue(0);
    }

    @Test
    void aBodyGrowingPastTheLimitIs413() {
        ScriptedInput in = new ScriptedInput();
        CompletableFuture<byte[]> body = NonBlockingBody.read(in, -1, 8, 30_000, inFlight); // chunked: no length to check first

        in.arrive("12345").arrive("6789").dataAvailable();

        assertThat(refusal(body).status()).isEqualTo(413);
        assertThat(inFlight).hasValue(0);
    }

    @Test
    void aBodyThatEndsEarlyIs400() {
        ScriptedInput in = new ScriptedInput();
        CompletableFuture<byte[]> body = NonBlockingBody.read(in, 100, 1000, 30_000, inFlight);

        in.arrive("{\"cut\":").dataAvailable();
        in.listener.onError(new IOException("early EOF"));

        assertThat(refusal(body).status()).isEqualTo(400);
        assertThat(inFlight).hasValue(0);
    }

    @Test
    void aBodyThatDoesNotArriveInTimeIs408() {
        ScriptedInput in = new ScriptedInput();
        CompletableFuture<byte[]> body = NonBlockingBody.read(in, 100, 1000, 50, inFlight);

        assertThatThrownBy(() -> body.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
        BodyRefusal refusal = NonBlockingBody.refusalFor(body.handle((ok, failure) -> failure).join(), 50);
        assertThat(refusal.status()).isEqualTo(408);
        assertThat(refusal.getMessage()).contains("50 ms");
        assertThat(inFlight).hasValue(0);
        in.arrive("late").dataAvailable(); // a callback after the outcome reads nothing more
        assertThat(in.pieces).hasSize(1);
    }

    private static BodyRefusal refusal(CompletableFuture<byte[]> body) {
        Throwable failure = body.handle((ok, error) -> error).join();
        assertThat(failure).isInstanceOf(BodyRefusal.class);
        return (BodyRefusal) failure;
    }

    /** Bytes that arrive when the test says, as Jetty's input would: ready while a piece is waiting. */
    private static final class ScriptedInput extends ServletInputStream {
        final Deque<byte[]> pieces = new ArrayDeque<>();
        ReadListener listener;
        boolean finished;

        ScriptedInput arrive(String text) {
            pieces.add(text.getBytes(StandardCharsets.UTF_8));
            return this;
        }

        void dataAvailable() {
            try {
                listener.onDataAvailable();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        void end() throws IOException {
            finished = true;
            listener.onAllDataRead();
        }

        @Override
        public boolean isFinished() {
            return finished;
        }

        @Override
        public boolean isReady() {
            return !pieces.isEmpty();
        }

        @Override
        public void setReadListener(ReadListener readListener) {
            listener = readListener;
        }

        @Override
        public int read() {
            throw new UnsupportedOperationException("read by array only");
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
            byte[] piece = pieces.poll();
            if (piece == null) {
                return -1;
            }
            System.arraycopy(piece, 0, buffer, offset, piece.length);
            return piece.length;
        }
    }
}
