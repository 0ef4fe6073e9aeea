package com.example.threading.events.publish;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Meter;
import com.example.threading.events.hub.Hubs;
import com.example.threading.events.stream.EventSink;
import com.example.threading.testing.Await;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The ticker goes on through a stream that fails, throws or does not answer, and counts each such tick. */
class EventTickerTest {

    @Test
    void ticksGoOnThroughFailuresAndAreCounted() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        EventSink sink = (topic, data) -> switch (calls.incrementAndGet()) {
            case 1 -> CompletableFuture.failedFuture(new IllegalStateException("store unreachable"));
            case 2 -> throw new IllegalStateException("broken sink");
            case 3 -> new CompletableFuture<>(); // never answers: counted at the publish timeout
            default -> CompletableFuture.completedFuture(Hubs.event(data.get("tick").asLong(), data));
        };
        Meter failures = new Meter();
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try {
            new EventTicker(sink, scheduler, 20, 200, failures).start();
            Await.until(() -> calls.get() >= 10 && failures.getCount() == 3, Duration.ofSeconds(30),
                    "ticks after the failures, and the three failures counted");
        } finally {
            scheduler.shutdownNow();
        }
        assertThat(failures.getCount()).isEqualTo(3);
    }
}
