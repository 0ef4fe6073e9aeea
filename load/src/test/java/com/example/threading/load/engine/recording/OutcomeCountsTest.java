package com.example.threading.load.engine.recording;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class OutcomeCountsTest {

    @Test
    void countsFromManyThreadsAreExact() throws Exception {
        OutcomeCounts counts = new OutcomeCounts();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            Outcome outcome = t % 2 == 0 ? Outcome.OK : Outcome.RESET;
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 100_000; i++) {
                    counts.add(outcome, 1);
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(counts.get(Outcome.OK)).isEqualTo(200_000);
        assertThat(counts.get(Outcome.RESET)).isEqualTo(200_000);
        assertThat(counts.total()).isEqualTo(400_000);
    }

    @Test
    void drainingWhileOthersAddLosesNothing() throws Exception {
        OutcomeCounts counts = new OutcomeCounts();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(2);
        long[] added = new long[2];
        Thread[] writers = new Thread[2];
        for (int w = 0; w < writers.length; w++) {
            int index = w;
            writers[w] = new Thread(() -> {
                started.countDown();
                while (!stop.get()) {
                    counts.add(Outcome.OK, 1);
                    added[index]++;
                }
            });
            writers[w].start();
        }
        started.await();
        long drained = 0;
        for (int i = 0; i < 2_000; i++) {
            drained += counts.drain().get(Outcome.OK);
        }
        stop.set(true);
        for (Thread writer : writers) {
            writer.join();
        }
        drained += counts.drain().get(Outcome.OK);
        assertThat(drained).isEqualTo(added[0] + added[1]);
        assertThat(counts.total()).as("drained to zero").isZero();
    }

    @Test
    void snapshotHasEveryOutcomeByNameInDeclarationOrder() {
        OutcomeCounts counts = new OutcomeCounts();
        counts.add(Outcome.TIMEOUT, 3);
        Map<String, Long> snapshot = counts.snapshot();
        assertThat(snapshot.keySet()).containsExactly(Arrays.stream(Outcome.values()).map(Outcome::name).toArray(String[]::new));
        assertThat(snapshot.get("TIMEOUT")).isEqualTo(3);
        assertThat(snapshot.get("OK")).isZero();
        counts.add(Outcome.TIMEOUT, 1);
        assertThat(snapshot.get("TIMEOUT")).as("a copy, not a view").isEqualTo(3);
        assertThat(counts.drain()).containsEntry(Outcome.TIMEOUT, 4L).containsEntry(Outcome.OK, 0L).hasSize(Outcome.values().length);
    }
}
