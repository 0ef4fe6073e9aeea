package com.example.threading.load.engine.recording;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.service.ServerCpu;
import java.io.FileInputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recorder alone, fed by threads of this test (no service, no client). */
class PhaseRecorderTest {

    private static final Outcome[] MIXED = {Outcome.OK, Outcome.OK, Outcome.OK, Outcome.REJECTED_503, Outcome.RESET, Outcome.UNAVAILABLE_501};

    @TempDir
    Path dir;

    private PhaseRecorder recorder(String name) {
        return new PhaseRecorder(name, dir.resolve(name + ".hlog"), new ServerCpu(Optional.empty()));
    }

    @Test
    void latencyRunsFromTheIntendedSendTimeSoALateSenderCannotHideTheDelay() {
        PhaseRecorder recorder = recorder("late");
        long answered = System.nanoTime();
        // Meant to go out 80 ms before it was answered, though the client stamped it sent 1 ms before.
        recorder.sent();
        recorder.record(Outcome.OK, answered - TimeUnit.MILLISECONDS.toNanos(80), answered);
        // Refused answers count, but only 2xx latencies go into the histogram; 503 latencies into their own.
        recorder.sent();
        recorder.record(Outcome.REJECTED_503, answered - TimeUnit.SECONDS.toNanos(5), answered);
        recorder.sent();
        recorder.record(Outcome.RESET, answered - TimeUnit.SECONDS.toNanos(7), answered);
        assertThat(recorder.rejectedHistogram().getTotalCount()).as("empty until finished").isZero();
        PhaseResult result = recorder.finish("HTTP/1.1", "/x", 10);

        assertThat(result.latencyMs().count()).isEqualTo(1);
        assertThat(result.latencyMs().min()).isBetween(79.9, 80.1);
        assertThat(recorder.rejectedHistogram().getTotalCount()).isEqualTo(1);
        assertThat(recorder.rejectedHistogram().getMaxValue()).isBetween(4_990_000L, 5_010_000L);
        assertThat(result.count(Outcome.REJECTED_503)).isEqualTo(1);
        assertThat(result.sent()).isEqualTo(3);
        assertThat(result.targetRatePerSecond()).isEqualTo(10);
        assertThat(result.serverCpuPercent()).as("no server process known: not measured, not 0 %").isNaN();
        assertThat(result.intervals()).isNotEmpty().allSatisfy(interval -> assertThat(interval.serverCpuPercent()).isNaN());
        assertThat(result.toolCpuPercent()).isNotNaN();
    }

    @Test
    void latenciesOutsideTheHistogramsRangeAreClampedNotLost() {
        PhaseRecorder recorder = recorder("clamped");
        long now = System.nanoTime();
        recorder.sent();
        recorder.record(Outcome.OK, now, now - 1_000);
        recorder.sent();
        recorder.record(Outcome.OK, now - TimeUnit.HOURS.toNanos(2), now);
        PhaseResult result = recorder.finish("HTTP/1.1", "/x", 0);

        assertThat(result.latencyMs().count()).isEqualTo(2);
        assertThat(result.latencyMs().min()).isZero();
        assertThat(result.latencyMs().max()).as("30 minutes, the histogram's top").isBetween(1_799_000.0, 1_801_000.0);
    }

    @Test
    void requestsStillOpenAtTheEndAreUnansweredAndLaterAnswersIgnored() {
        PhaseRecorder recorder = recorder("open");
        for (int i = 0; i < 5; i++) {
            recorder.sent();
        }
        long now = System.nanoTime();
        recorder.record(Outcome.OK, now, now);
        recorder.record(Outcome.TIMEOUT, now, now);
        PhaseResult result = recorder.finish("h2c", "/x", 0);
        recorder.record(Outcome.OK, now, now);

        assertThat(result.count(Outcome.UNANSWERED)).isEqualTo(3);
        assertThat(result.count(Outcome.OK)).isEqualTo(1);
        assertThat(recorder.finish("h2c", "/x", 0)).as("finish is idempotent").isSameAs(result);
        assertThat(recorder.okCount()).isEqualTo(1);
        assertThat(result.outcomes().keySet()).as("every outcome, in order").containsExactly(
                java.util.Arrays.stream(Outcome.values()).map(Outcome::name).toArray(String[]::new));
    }

    /**
     * Writers keep answering while the owner finishes the phase (a deadline cutting a phase): every request
     * sent must still end in exactly one outcome, the intervals must add up to the totals, and the histogram
     * must hold every 2xx. Many short rounds, so the finish lands inside a writer's record again and again.
     */
    @Test
    void everyRequestEndsInExactlyOneOutcomeWhenFinishRacesTheWriters() throws Exception {
        for (int round = 0; round < 60; round++) {
            PhaseResult result = raceFinishAgainstWriters(recorder("race-" + round), 4, 3);
            assertConsistent(result);
        }
    }

    @Test
    void intervalsCutOnceASecondAddUpToTheTotalsAndTheLogHoldsEvery2xx() throws Exception {
        PhaseRecorder recorder = recorder("ticks");
        PhaseResult result = raceFinishAgainstWriters(recorder, 3, 2_300);

        assertThat(result.intervals()).as("ticks while writing, and the last one at finish").hasSizeGreaterThanOrEqualTo(3);
        assertConsistent(result);
        long logged = 0;
        try (FileInputStream in = new FileInputStream(dir.resolve("ticks.hlog").toFile())) {
            HistogramLogReader reader = new HistogramLogReader(in);
            for (EncodableHistogram interval = reader.nextIntervalHistogram(); interval != null; interval = reader.nextIntervalHistogram()) {
                logged += ((org.HdrHistogram.Histogram) interval).getTotalCount();
            }
        }
        assertThat(logged).as("2xx in the .hlog").isEqualTo(result.count(Outcome.OK));
    }

    private static PhaseResult raceFinishAgainstWriters(PhaseRecorder recorder, int writers, long finishAfterMillis) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch writing = new CountDownLatch(writers);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            Random random = new Random(20261201L + w); // the same outcomes and latencies every run
            Thread thread = new Thread(() -> {
                writing.countDown();
                while (!stop.get()) {
                    recorder.sent();
                    long now = System.nanoTime();
                    recorder.record(MIXED[random.nextInt(MIXED.length)], now - random.nextLong(1_000_000), now);
                }
            });
            thread.start();
            threads.add(thread);
        }
        writing.await();
        Thread.sleep(finishAfterMillis);
        PhaseResult result = recorder.finish("HTTP/1.1", "/x", 0);
        stop.set(true);
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        return result;
    }

    /** The same accounting the end-to-end tests check on every phase of a report. */
    private static void assertConsistent(PhaseResult result) {
        long sum = result.outcomes().values().stream().mapToLong(Long::longValue).sum();
        assertThat(sum).as("%s: outcomes add up to sent", result.name()).isEqualTo(result.sent());
        long intervalOk = result.intervals().stream().mapToLong(IntervalSample::ok).sum();
        long intervalErrors = result.intervals().stream().mapToLong(sample -> sample.rejected503() + sample.otherErrors()).sum();
        assertThat(intervalOk).as("%s: intervals add up to the 2xx", result.name()).isEqualTo(result.count(Outcome.OK));
        assertThat(intervalErrors + result.count(Outcome.UNANSWERED)).as("%s: intervals add up to the errors", result.name())
                .isEqualTo(result.sent() - result.count(Outcome.OK) - result.count(Outcome.UNAVAILABLE_501));
        assertThat(result.latencyMs().count()).as("%s: the histogram holds every 2xx", result.name()).isEqualTo(result.count(Outcome.OK));
    }
}
