package com.example.threading.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The cap of via=common, on the JDK's real default async executor. */
class CommonCallLimitTest {

    @Test
    void aFanoutIsAdmittedWholeOrNotAndEachEndedTaskGivesItsPlaceBack() throws Exception {
        CommonCallLimit limit = new CommonCallLimit(4);
        assertThat(limit.tryAdmit(5)).as("more than the cap").isFalse();
        assertThat(limit.tryAdmit(3)).isTrue();
        assertThat(limit.tryAdmit(2)).as("only one place left").isFalse();
        assertThat(limit.inFlight()).isEqualTo(3);

        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<?>[] calls = new CompletableFuture<?>[3];
        for (int i = 0; i < 3; i++) {
            calls[i] = CompletableFuture.runAsync(() -> {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, limit.place().executor());
        }
        assertThat(limit.inFlight()).isEqualTo(3);
        release.countDown();
        CompletableFuture.allOf(calls).get(30, TimeUnit.SECONDS);

        Await.until(() -> limit.inFlight() == 0, Duration.ofSeconds(10), "every place given back");
        assertThat(limit.tryAdmit(4)).isTrue();
    }

    @Test
    void aCancelledTaskGivesItsPlaceBackWhenTheExecutorSkipsIt() throws Exception {
        CommonCallLimit limit = new CommonCallLimit(1);
        assertThat(limit.tryAdmit(1)).isTrue();
        CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> "x", limit.place().executor());
        call.cancel(false);

        Await.until(() -> limit.inFlight() == 0, Duration.ofSeconds(10), "the place given back");
    }

    @Test
    void aCallThatGivesItsPlaceBackFreesItBeforeItsOutcomeIsReportedAndOnlyOnce() throws Exception {
        CommonCallLimit limit = new CommonCallLimit(2);
        assertThat(limit.tryAdmit(2)).isTrue();
        CommonCallLimit.Place place = limit.place();

        int inFlightAtTheOutcome = CompletableFuture.supplyAsync(() -> {
            try {
                return "x";
            } finally {
                place.giveBack();
            }
        }, place.executor()).thenApply(body -> limit.inFlight()).get(30, TimeUnit.SECONDS);
        place.giveBack();

        assertThat(inFlightAtTheOutcome).as("the place was back before the outcome").isEqualTo(1);
        assertThat(limit.inFlight()).as("given back once").isEqualTo(1);
    }
}
