package com.example.threading.requestlog;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.read.ListAppender;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link BurstWriter}: a burst gives the writer one task and reaches a stream appender as one write, other appenders
 * line by line; a full queue drops and counts, or waits; many threads at once lose no line and keep each thread's
 * order; stop writes what is queued, and a line after it is dropped and counted, not thrown.
 */
class BurstWriterTest {

    private static final Duration HOUR = Duration.ofHours(1);

    private final LoggerContext context = new LoggerContext();
    private final LongAdder dropped = new LongAdder();
    private final CountingStream stream = new CountingStream();
    private final ListAppender<ILoggingEvent> list = new ListAppender<>();
    /** A writer whose tasks wait an hour: a test counts them and runs them itself. */
    private final ScheduledThreadPoolExecutor held = new ScheduledThreadPoolExecutor(1);

    @Test
    void aBurstWakesTheWriterOnceAndReachesAStreamAsOneWriteAndOtherAppendersLineByLine() throws Exception {
        BurstWriter writer = started(held, HOUR, 1_000, true);

        IntStream.range(0, 100).forEach(i -> writer.write("line " + i));

        assertThat(held.getQueue()).as("tasks given to the writer for 100 lines").hasSize(1);
        runHeld();
        assertThat(stream.writes.get()).as("writes to the stream for the burst").isEqualTo(1);
        String expected = IntStream.range(0, 100).mapToObj(i -> "line " + i + System.lineSeparator())
                .reduce("", String::concat);
        assertThat(stream.toString(StandardCharsets.UTF_8)).isEqualTo(expected);
        assertThat(list.list).extracting(ILoggingEvent::getFormattedMessage)
                .containsExactlyElementsOf(IntStream.range(0, 100).mapToObj(i -> "line " + i).toList());
        assertThat(dropped.sum()).isZero();
    }

    @Test
    void aBurstLongerThanOneEventIsSeveralEventsWithNoLineCut() throws Exception {
        BurstWriter writer = started(held, HOUR, 1_000, true);
        String line = "x".repeat(1_000);

        IntStream.range(0, 200).forEach(i -> writer.write(line));
        runHeld();

        int events = 200 * 1_000 / BurstWriter.MAX_EVENT_CHARS;
        assertThat(stream.writes.get()).isBetween(events, events + 1);
        assertThat(stream.toString(StandardCharsets.UTF_8).split(System.lineSeparator()))
                .hasSize(200).containsOnly(line);
    }

    @Test
    void aFullQueueDropsAndCountsTheLinesItCannotTakeUnderNeverBlock() throws Exception {
        BurstWriter writer = started(held, HOUR, 10, true);

        IntStream.range(0, 15).forEach(i -> writer.write("line " + i));

        assertThat(dropped.sum()).isEqualTo(5);
        runHeld();
        assertThat(list.list).extracting(ILoggingEvent::getFormattedMessage)
                .containsExactlyElementsOf(IntStream.range(0, 10).mapToObj(i -> "line " + i).toList());
        writer.write("after the burst");
        assertThat(held.getQueue()).as("room again, and the writer woken again").hasSize(1);
    }

    @Test
    void withoutNeverBlockAFullQueueMakesTheLineWaitForRoom() throws Exception {
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor();
        BurstWriter writer = started(thread, Duration.ZERO, 2, false);

        IntStream.range(0, 1_000).forEach(i -> writer.write("line " + i));
        writer.stop();

        assertThat(dropped.sum()).isZero();
        assertThat(list.list).extracting(ILoggingEvent::getFormattedMessage)
                .containsExactlyElementsOf(IntStream.range(0, 1_000).mapToObj(i -> "line " + i).toList());
        assertThat(thread.awaitTermination(10, TimeUnit.SECONDS)).as("stop shuts the writer's thread down").isTrue();
    }

    @Test
    void manyThreadsAtOnceLoseNoLineAndKeepEachThreadsOrderAndStopWritesWhatIsQueued() throws Exception {
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor();
        BurstWriter writer = started(thread, JettyRequestLogFactory.LINGER, Integer.MAX_VALUE, true);
        int threads = 4;
        int perThread = 5_000;
        ExecutorService senders = Executors.newFixedThreadPool(threads);

        List<Future<?>> sent = IntStream.range(0, threads).<Future<?>>mapToObj(t -> senders.submit(() -> {
            for (int n = 0; n < perThread; n++) {
                writer.write(t + " " + n);
            }
        })).toList();
        for (Future<?> done : sent) {
            done.get(30, TimeUnit.SECONDS);
        }
        senders.shutdown();
        writer.stop(); // at once: what a drain has not written yet, the stop writes

        assertThat(list.list).hasSize(threads * perThread);
        Map<String, Integer> last = new HashMap<>();
        for (ILoggingEvent event : list.list) {
            String[] parts = event.getFormattedMessage().split(" ");
            int n = Integer.parseInt(parts[1]);
            assertThat(n).as("thread " + parts[0] + "'s lines in order").isEqualTo(last.getOrDefault(parts[0], -1) + 1);
            last.put(parts[0], n);
        }
        assertThat(stream.toString(StandardCharsets.UTF_8).split(System.lineSeparator())).hasSize(threads * perThread);
        assertThat(dropped.sum()).isZero();
    }

    @Test
    void aLineAfterTheStopIsDroppedAndCountedNotThrown() throws Exception {
        BurstWriter writer = started(Executors.newSingleThreadScheduledExecutor(), JettyRequestLogFactory.LINGER, 100,
                true);
        writer.stop();

        writer.write("late");

        assertThat(dropped.sum()).isEqualTo(1);
        assertThat(list.list).isEmpty();
    }

    /** Runs the writer's first waiting task now. */
    private void runHeld() {
        Runnable task = held.getQueue().iterator().next();
        held.getQueue().remove(task);
        task.run();
    }

    private BurstWriter started(ScheduledExecutorService executor, Duration linger, int capacity, boolean dropWhenFull)
            throws Exception {
        OutputStreamAppender<ILoggingEvent> streamAppender = new OutputStreamAppender<>();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%msg%n");
        encoder.start();
        streamAppender.setContext(context);
        streamAppender.setEncoder(encoder);
        streamAppender.setOutputStream(stream);
        streamAppender.start();
        list.setContext(context);
        list.start();
        List<Appender<ILoggingEvent>> appenders = List.of(streamAppender, list);
        BurstWriter writer = new BurstWriter(appenders, context, executor, linger, capacity, dropWhenFull, dropped);
        writer.start();
        return writer;
    }

    /** Counts the writes it is given (an appender writes each event's bytes with one call). */
    private static final class CountingStream extends ByteArrayOutputStream {
        final AtomicInteger writes = new AtomicInteger();

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            writes.incrementAndGet();
            super.write(bytes, offset, length);
        }
    }
}
