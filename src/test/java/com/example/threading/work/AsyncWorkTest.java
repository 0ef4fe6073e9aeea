package com.example.threading.work;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Meter;
import com.example.threading.testing.Await;
import com.example.threading.testing.RecordingAsyncResponse;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/** {@link AsyncWork} on a real pool: the work, the timeout and a refusal race to answer, exactly one wins. */
class AsyncWorkTest {

    private static final long TIMEOUT_MS = 500;

    private final ThreadPoolExecutor pool = (ThreadPoolExecutor) Executors.newFixedThreadPool(1);
    private final Meter rejected = new Meter();
    private final Meter timeouts = new Meter();
    private final AsyncWork work = new AsyncWork("cached", pool, SimulatedWork::waitFor, TIMEOUT_MS, 2, rejected, timeouts);

    @AfterEach
    void stopPool() {
        pool.shutdownNow();
    }

    @Test
    void theWorkAnswersWithItsResult() {
        RecordingAsyncResponse response = new RecordingAsyncResponse();

        work.start(response, 5);

        Await.until(response::isDone, Duration.ofSeconds(10), "answered");
        WorkResult result = (WorkResult) response.answers().get(0);
        assertThat(result.pattern()).isEqualTo("cached");
        assertThat(result.requestedMs()).isEqualTo(5);
        assertThat(response.timeoutMs()).isEqualTo(TIMEOUT_MS);
        assertThat(timeouts.getCount() + rejected.getCount()).isZero();
    }

    @Test
    void theTimeoutAnswers503AndInterruptsTheWork() {
        RecordingAsyncResponse response = new RecordingAsyncResponse();
        work.start(response, 60_000);
        Await.until(() -> pool.getActiveCount() == 1, Duration.ofSeconds(10), "the work running");

        response.fireTimeout();

        Response answer = (Response) response.answers().get(0);
        assertThat(answer.getStatus()).isEqualTo(503);
        assertThat(answer.getHeaderString(HttpHeaders.RETRY_AFTER)).isEqualTo("2");
        assertThat(timeouts.getCount()).isEqualTo(1);
        // Interrupted, not left sleeping for a minute; and the cancelled task did not try to answer too.
        Await.until(() -> pool.getActiveCount() == 0, Duration.ofSeconds(10), "the pool's thread free again");
        assertThat(response.attempts()).hasSize(1);
    }

    @Test
    void aRefusedTaskIsAnswered503AndCounted() {
        RecordingAsyncResponse response = new RecordingAsyncResponse();
        AsyncWork refusing = new AsyncWork("bounded", task -> {
            throw new RejectedExecutionException("full");
        }, SimulatedWork::waitFor, TIMEOUT_MS, 3, rejected, timeouts);

        refusing.start(response, 5);

        Response answer = (Response) response.answers().get(0);
        assertThat(answer.getStatus()).isEqualTo(503);
        assertThat(answer.getHeaderString(HttpHeaders.RETRY_AFTER)).isEqualTo("3");
        assertThat(rejected.getCount()).isEqualTo(1);
    }

    @RepeatedTest(20)
    void theWorkRacingItsTimeoutAnswersOnce() {
        RecordingAsyncResponse response = new RecordingAsyncResponse();
        ExecutorService racer = Executors.newSingleThreadExecutor();
        try {
            work.start(response, 1);
            racer.execute(response::fireTimeout);
            Await.until(response::isDone, Duration.ofSeconds(10), "answered");
            Await.until(() -> pool.getActiveCount() == 0, Duration.ofSeconds(10), "work over");
        } finally {
            racer.shutdown();
        }
        assertThat(response.answers()).hasSize(1);
        Object answer = response.answers().get(0);
        assertThat(answer instanceof WorkResult || answer instanceof Response r && r.getStatus() == 503).as(String.valueOf(answer)).isTrue();
    }
}
