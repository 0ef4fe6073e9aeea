package com.example.threading.requestlog;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.util.component.AbstractLifeCycle;

/**
 * Writes the request log's lines in bursts: the thread that completes a request adds its line to a lock-free queue,
 * and one task on {@code writer}, {@code linger} after the first line it will write, takes every line queued by then
 * and hands them to the appenders. The task is scheduled only by the line that finds none pending, so the writer's
 * thread is woken at most once per {@code linger}, not once per line as Dropwizard's asynchronous appender's is: one
 * event answering 1,000 parked polls then costs 11-26 % less server CPU per answer (docs/cost.md, "A batch
 * answer"). An appender that writes to a stream (console, file) gets a burst's lines as one event, so one write; any
 * other appender (e.g. syslog) gets one event per line. The appenders are called on the writer only; a line reaches
 * them at most {@code linger} late.
 *
 * <p>Bounded: at most {@code capacity} lines wait. When full, a line is dropped and counted ({@code dropWhenFull},
 * the appenders' {@code neverBlock}), or its thread waits for room. A line written after the stop is counted too.
 *
 * <p>Thread-safety: {@link #write} is called by any number of threads at once. The queue is a
 * {@link ConcurrentLinkedQueue}; {@code pending} makes sure one drain runs at a time, and a drain that ends with lines
 * still queued runs again, so no line waits for the next one. Start and stop are Jetty's lifecycle (one thread); stop
 * shuts the writer down, lets its last drain run, writes what is still queued, then stops the appenders.
 * {@code BurstWriterTest} checks each of these with real threads and with a writer whose tasks it runs itself.
 */
final class BurstWriter extends AbstractLifeCycle implements RequestLog.Writer {

    /** Most characters one event of a burst carries; a longer burst is several events. */
    static final int MAX_EVENT_CHARS = 64 * 1024;
    /** Longest a stop waits for the writer's last drain before it stops the appenders. */
    static final long STOP_WAIT_MS = 5_000;
    /** The logger the lines are events of. */
    static final String LOGGER = "http.request";

    private final List<Appender<ILoggingEvent>> appenders;
    private final LoggerContext context;
    private final ScheduledExecutorService writer;
    private final long lingerNanos;
    private final int capacity;
    private final boolean dropWhenFull;
    private final LongAdder dropped;
    private final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicBoolean pending = new AtomicBoolean();

    BurstWriter(List<Appender<ILoggingEvent>> appenders, LoggerContext context, ScheduledExecutorService writer,
                Duration linger, int capacity, boolean dropWhenFull, LongAdder dropped) {
        this.appenders = List.copyOf(appenders);
        this.context = context;
        this.writer = writer;
        this.lingerNanos = linger.toNanos();
        this.capacity = capacity;
        this.dropWhenFull = dropWhenFull;
        this.dropped = dropped;
    }

    /** Queues the line, or drops and counts it when {@code capacity} lines already wait and lines may be dropped. */
    @Override
    public void write(String line) {
        while (queued.incrementAndGet() > capacity) {
            queued.decrementAndGet();
            if (dropWhenFull) {
                dropped.increment();
                return;
            }
            schedule();
            LockSupport.parkNanos(100_000);
        }
        lines.add(line);
        schedule();
    }

    private void schedule() {
        if (!pending.get() && pending.compareAndSet(false, true)) {
            try {
                writer.schedule(this::drain, lingerNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException stopped) {
                // a line of a request completed after the log stopped: nobody will write it
                for (String line = lines.poll(); line != null; line = lines.poll()) {
                    queued.decrementAndGet();
                    dropped.increment();
                }
                pending.set(false);
            }
        }
    }

    /** Writes every queued line, again while lines came after the last look; one drain at a time. */
    private void drain() {
        do {
            List<String> burst = new ArrayList<>();
            for (String line = lines.poll(); line != null; line = lines.poll()) {
                burst.add(line);
            }
            queued.addAndGet(-burst.size());
            if (!burst.isEmpty()) {
                append(burst);
            }
            pending.set(false);
        } while (!lines.isEmpty() && pending.compareAndSet(false, true));
    }

    private void append(List<String> burst) {
        for (Appender<ILoggingEvent> appender : appenders) {
            if (appender instanceof OutputStreamAppender) {
                StringBuilder text = new StringBuilder();
                for (String line : burst) {
                    if (text.length() > 0 && text.length() + line.length() > MAX_EVENT_CHARS) {
                        appender.doAppend(event(text.toString()));
                        text.setLength(0);
                    }
                    if (text.length() > 0) {
                        text.append(System.lineSeparator());
                    }
                    text.append(line);
                }
                appender.doAppend(event(text.toString()));
            } else {
                burst.forEach(line -> appender.doAppend(event(line)));
            }
        }
    }

    /** An INFO event of logger {@code http.request}; the lines carry their request ids, no thread's MDC is copied. */
    private ILoggingEvent event(String text) {
        LoggingEvent event = new LoggingEvent();
        event.setLevel(Level.INFO);
        event.setLoggerName(LOGGER);
        event.setMessage(text);
        event.setTimeStamp(System.currentTimeMillis());
        event.setLoggerContext(context);
        event.setMDCPropertyMap(Map.of());
        return event;
    }

    /** Lets the writer's last drain run (up to {@value #STOP_WAIT_MS} ms), writes what is left, stops the appenders. */
    @Override
    protected void doStop() throws Exception {
        writer.shutdown(); // a drain already scheduled still runs; a line from now on is counted as dropped
        writer.awaitTermination(STOP_WAIT_MS, TimeUnit.MILLISECONDS);
        if (pending.compareAndSet(false, true)) {
            drain(); // lines queued after the last drain looked, before the shutdown
        }
        appenders.forEach(Appender::stop);
        super.doStop();
    }
}
