package com.example.threading.events.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The token bucket of a socket's messages, on an injected clock. */
class MessageRateTest {

    private final AtomicLong nanos = new AtomicLong(123_456_789L);

    @Test
    void aBurstOfTheRateThenOneMessagePerPeriod() {
        MessageRate rate = new MessageRate(4, nanos::get);
        for (int i = 0; i < 4; i++) {
            assertThat(rate.tryTake()).as("burst %d", i).isTrue();
        }
        assertThat(rate.tryTake()).as("the fifth within the same instant").isFalse();
        advanceMillis(249);
        assertThat(rate.tryTake()).as("a quarter second less a millisecond").isFalse();
        advanceMillis(1);
        assertThat(rate.tryTake()).as("a quarter second refills one").isTrue();
        assertThat(rate.tryTake()).isFalse();
    }

    @Test
    void aLongPauseRefillsTheBurstAndNoMore() {
        MessageRate rate = new MessageRate(2, nanos::get);
        assertThat(rate.tryTake()).isTrue();
        assertThat(rate.tryTake()).isTrue();
        advanceMillis(TimeUnit.DAYS.toMillis(400));
        assertThat(rate.tryTake()).isTrue();
        assertThat(rate.tryTake()).isTrue();
        assertThat(rate.tryTake()).as("two at most, however long the pause").isFalse();
    }

    @Test
    void refusedMessagesTakeNothing() {
        MessageRate rate = new MessageRate(1, nanos::get);
        assertThat(rate.tryTake()).isTrue();
        for (int i = 0; i < 10; i++) {
            advanceMillis(50);
            assertThat(rate.tryTake()).isFalse();
        }
        advanceMillis(500);
        assertThat(rate.tryTake()).as("one second after the first, whatever was refused meanwhile").isTrue();
    }

    private void advanceMillis(long millis) {
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }
}
