package com.example.threading.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Meter;
import com.codahale.metrics.Timer;
import com.example.threading.testing.RecordingAsyncResponse;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class FanoutRunTest {

    @Test
    void answersOnceEveryCallHasItsOutcome() {
        RecordingAsyncResponse response = new RecordingAsyncResponse();
        FanoutRun run = new FanoutRun(3, Via.MANAGED, 5, "test", response, new ViaMetrics(new Timer(), new Meter(), new Meter()));

        run.complete(null);
        run.complete(new RejectedExecutionException("full"));
        assertThat(response.answers()).isEmpty();
        assertThat(run.isAnswered()).isFalse();
        run.complete(null);

        assertThat(response.answers()).hasSize(1);
        FanoutResult result = (FanoutResult) response.answers().get(0);
        assertThat(result.succeeded()).isEqualTo(2);
        assertThat(result.errors()).isEqualTo(1);
        assertThat(result.errorsByKind()).isEqualTo(Map.of("RejectedExecutionException", 1));
        assertThat(run.isAnswered()).isTrue();
        run.timedOut();
        run.complete(null);
        assertThat(response.answers()).hasSize(1);
    }

    @Test
    void theTimeoutAnswersWithWhatHasFinishedAndStopsTheRest() {
        RecordingAsyncResponse response = new RecordingAsyncResponse();
        FanoutRun run = new FanoutRun(4, Via.RXJAVA, null, "test", response, new ViaMetrics(new Timer(), new Meter(), new Meter()));
        List<String> cancelled = new CopyOnWriteArrayList<>();
        run.onTimeoutCancel(() -> cancelled.add("before"));
        run.complete(null);

        run.timedOut();

        assertThat(response.answers()).hasSize(1);
        assertThat(((FanoutResult) response.answers().get(0)).succeeded()).isEqualTo(1);
        assertThat(((FanoutResult) response.answers().get(0)).errorsByKind()).isEqualTo(Map.of(FanoutRun.UNFINISHED, 3));
        assertThat(cancelled).containsExactly("before");
        assertThat(run.recordThread(Thread.currentThread())).as("a call of an answered run is not sent").isFalse();
        run.onTimeoutCancel(() -> cancelled.add("after")); // registered late: runs at once
        assertThat(cancelled).containsExactly("before", "after");
    }

    /** Outcomes from many threads race the timeout: exactly one answer, whoever wins. */
    @RepeatedTest(20)
    void outcomesRacingTheTimeoutAnswerExactlyOnce() throws Exception {
        int threads = 8;
        int callsPerThread = 50;
        RecordingAsyncResponse response = new RecordingAsyncResponse();
        FanoutRun run = new FanoutRun(threads * callsPerThread, Via.CALLBACK, 1, "test", response, new ViaMetrics(new Timer(), new Meter(), new Meter()));
        CyclicBarrier go = new CyclicBarrier(threads + 1);
        List<Thread> racers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread racer = new Thread(() -> {
                await(go);
                for (int i = 0; i < callsPerThread; i++) {
                    run.complete(null);
                }
            });
            racer.start();
            racers.add(racer);
        }
        Thread timeout = new Thread(() -> {
            await(go);
            Thread.yield();
            run.timedOut();
        });
        timeout.start();
        racers.add(timeout);
        for (Thread racer : racers) {
            racer.join(TimeUnit.SECONDS.toMillis(30));
        }

        assertThat(response.attempts()).as("answers sent, won or lost").hasSize(1);
        FanoutResult result = (FanoutResult) response.answers().get(0);
        assertThat(result.succeeded() + result.errors()).isEqualTo(threads * callsPerThread);
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void poolIsTheThreadNameWithoutItsNumber() {
        assertThat(FanoutRun.poolOf("jersey-client-fanout-12")).isEqualTo("jersey-client-fanout-");
        assertThat(FanoutRun.poolOf("ForkJoinPool.commonPool-worker-3")).isEqualTo("ForkJoinPool.commonPool-worker-");
        assertThat(FanoutRun.poolOf("main")).isEqualTo("main");
    }

    @Test
    void errorKindNamesTheStatusOrTheUnderlyingCause() {
        assertThat(FanoutRun.kindOf(new CompletionException(new WebApplicationException(Response.status(503).build()))))
                .isEqualTo("HTTP 503");
        assertThat(FanoutRun.kindOf(new CompletionException(new ProcessingException(new SocketTimeoutException("Read timed out")))))
                .isEqualTo("SocketTimeoutException");
        assertThat(FanoutRun.kindOf(new RejectedExecutionException("full"))).isEqualTo("RejectedExecutionException");
    }
}
