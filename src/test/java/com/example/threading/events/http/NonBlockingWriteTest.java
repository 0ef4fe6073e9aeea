package com.example.threading.events.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Meter;
import io.opentelemetry.context.Context;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** {@link NonBlockingWrite} with the test playing Jetty's write callbacks. */
class NonBlockingWriteTest {

    private static final byte[] BODY = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);

    private final Meter writeFailures = new Meter();

    @Test
    void theClaimIsTakenWhenTheWriteStartsAndTheAnswerIsCompleteOnce() {
        FakeAsyncContext context = new FakeAsyncContext(false);
        AtomicBoolean claimed = new AtomicBoolean();

        assertThat(NonBlockingWrite.send(context, new JsonReply(200, Map.of("X-Batch", "7"), BODY), () -> claimed.compareAndSet(false, true),
                writeFailures, Context.root())).isTrue();
        assertThat(claimed).as("nothing claimed while the write waits").isFalse();
        assertThat(context.status()).isZero();

        context.writePossible();

        assertThat(claimed).isTrue();
        assertThat(context.status()).isEqualTo(200);
        assertThat(context.header("X-Batch")).isEqualTo("7");
        assertThat(context.body()).isEqualTo("{\"ok\":true}");
        assertThat(context.completions()).isEqualTo(1);
    }

    @Test
    void aLostClaimWritesNothingAndLeavesTheRequestToItsWinner() {
        FakeAsyncContext context = new FakeAsyncContext(false);
        NonBlockingWrite.send(context, new JsonReply(200, Map.of(), BODY), () -> false, writeFailures, Context.root());

        context.writePossible();

        assertThat(context.status()).isZero();
        assertThat(context.body()).isEmpty();
        assertThat(context.completions()).isZero();
    }

    @Test
    void aSlowClientIsCompletedOnlyOnceItsBytesAreTaken() {
        FakeAsyncContext context = new FakeAsyncContext(false);
        NonBlockingWrite.send(context, new JsonReply(200, Map.of(), BODY), () -> true, writeFailures, Context.root());
        context.ready(false); // the socket takes the write but is not ready for more: the bytes are in flight

        context.writePossible();
        assertThat(context.body()).isEqualTo("{\"ok\":true}");
        assertThat(context.completions()).isZero();

        context.ready(true);
        context.writePossible(); // Jetty calls back once the bytes are out

        assertThat(context.completions()).isEqualTo(1);
        assertThat(context.body()).as("written once").isEqualTo("{\"ok\":true}");
    }

    @Test
    void aFailedWriteCompletesTheRequestAndIsCountedOnlyIfItWasClaimed() throws IOException {
        FakeAsyncContext claimedThenFailed = new FakeAsyncContext(false);
        NonBlockingWrite.send(claimedThenFailed, new JsonReply(200, Map.of(), BODY), () -> true, writeFailures, Context.root());
        claimedThenFailed.ready(false);
        claimedThenFailed.writePossible();
        listenerOf(claimedThenFailed).onError(new IOException("connection reset"));
        assertThat(claimedThenFailed.completions()).isEqualTo(1);
        assertThat(writeFailures.getCount()).isEqualTo(1);

        FakeAsyncContext failedBeforeClaim = new FakeAsyncContext(false);
        NonBlockingWrite.send(failedBeforeClaim, new JsonReply(200, Map.of(), BODY), () -> true, writeFailures, Context.root());
        listenerOf(failedBeforeClaim).onError(new IOException("connection reset"));
        assertThat(failedBeforeClaim.completions()).isEqualTo(1);
        assertThat(writeFailures.getCount()).as("not this answer's write that failed").isEqualTo(1);
    }

    @Test
    void aStatusWithoutBodyIsAnsweredOnTheCallingThread() {
        FakeAsyncContext context = new FakeAsyncContext(false);

        NonBlockingWrite.complete(context, 204);

        assertThat(context.status()).isEqualTo(204);
        assertThat(context.body()).isEmpty();
        assertThat(context.completions()).isEqualTo(1);
    }

    private static jakarta.servlet.WriteListener listenerOf(FakeAsyncContext context) {
        return context.writeListener();
    }
}
