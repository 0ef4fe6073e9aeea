package com.example.threading.requestlog;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.AsyncAppenderBase;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.pattern.DynamicConverter;
import ch.qos.logback.core.pattern.PatternLayoutBase;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeName;
import io.dropwizard.logging.common.AppenderFactory;
import io.dropwizard.logging.common.ConsoleAppenderFactory;
import io.dropwizard.logging.common.async.AsyncLoggingEventAppenderFactory;
import io.dropwizard.logging.common.filter.NullLevelFilterFactory;
import io.dropwizard.request.logging.RequestLogFactory;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.eclipse.jetty.server.CustomRequestLog;
import org.eclipse.jetty.server.RequestLog;
import org.slf4j.LoggerFactory;

/**
 * {@code server.requestLog.type: jetty}: the request log as Jetty's {@link CustomRequestLog} formats it, one line per
 * request, handed as text to Dropwizard's logback appenders (console, file, syslog; asynchronous). Dropwizard's
 * default ({@code logback-access}) builds an access event per request and copies its headers, cookies and attributes on
 * the answering thread before the line is queued: when one event answered 1,000 parked polls, 41 % of the batch's
 * samples outside the JIT compiler (docs/cost.md, "A batch answer"). Here the answering thread formats one string and
 * queues it, and one thread writes the lines queued meanwhile together ({@link BurstWriter}).
 *
 * <p>{@code format} is Jetty's {@code CustomRequestLog} syntax. The appenders' {@code queueSize} (the smallest, with
 * several) bounds the lines waiting; under {@code neverBlock} (every appender's) a line that finds the queue full is
 * dropped and counted in {@link #dropped()}, else its thread waits for room.
 */
@JsonTypeName("jetty")
public final class JettyRequestLogFactory implements RequestLogFactory<RequestLog> {

    /** How long the writer waits after a burst's first line before it writes the burst (so how late a line may be). */
    static final Duration LINGER = Duration.ofMillis(2);

    /** Client, request line without the query, status, body bytes, milliseconds, and the request id answered. */
    public static final String DEFAULT_FORMAT = "%{client}a \"%m %U %H\" %s %O %{ms}T ms request_id=%{X-Request-Id}o";

    @NotEmpty
    private String format = DEFAULT_FORMAT;

    @Valid
    @NotNull
    private List<AppenderFactory<ILoggingEvent>> appenders = List.of(new ConsoleAppenderFactory<>());

    private final LongAdder dropped = new LongAdder();

    /** Jetty's {@code CustomRequestLog} format of a line. */
    @JsonProperty
    public String getFormat() {
        return format;
    }

    /** Sets the format. */
    @JsonProperty
    public void setFormat(String format) {
        this.format = format;
    }

    /** Where the lines go; none turns the log off. */
    @JsonProperty
    public List<AppenderFactory<ILoggingEvent>> getAppenders() {
        return appenders;
    }

    /** Sets the appenders. */
    @JsonProperty
    public void setAppenders(List<AppenderFactory<ILoggingEvent>> appenders) {
        this.appenders = List.copyOf(appenders);
    }

    /** Lines dropped because an appender's queue was full. */
    public long dropped() {
        return dropped.sum();
    }

    @Override
    public boolean isEnabled() {
        return !appenders.isEmpty();
    }

    @Override
    public RequestLog build(String name) {
        Logger logger = (Logger) LoggerFactory.getLogger(BurstWriter.LOGGER);
        logger.setAdditive(false);
        LoggerContext context = logger.getLoggerContext();
        List<Appender<ILoggingEvent>> direct = new ArrayList<>();
        int capacity = Integer.MAX_VALUE;
        boolean dropWhenFull = true;
        for (AppenderFactory<ILoggingEvent> appender : appenders) {
            // Dropwizard wraps each appender in an asynchronous one, a queue and a thread per appender; BurstWriter
            // is the queue and the thread here, so the wrapper gives up its appender and stops, keeping its bounds.
            Appender<ILoggingEvent> built = appender.build(context, name,
                    (loggerContext, timeZone) -> new MessageLayout(loggerContext), new NullLevelFilterFactory<>(),
                    new AsyncLoggingEventAppenderFactory());
            if (built instanceof AsyncAppenderBase<ILoggingEvent> async) {
                capacity = Math.min(capacity, async.getQueueSize());
                dropWhenFull &= async.isNeverBlock();
                List<Appender<ILoggingEvent>> inner = new ArrayList<>();
                async.iteratorForAppenders().forEachRemaining(inner::add);
                inner.forEach(async::detachAppender);
                async.stop();
                direct.addAll(inner);
            } else {
                direct.add(built);
            }
        }
        ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "request-log");
            thread.setDaemon(true);
            return thread;
        });
        BurstWriter lines = new BurstWriter(direct, context, writer, LINGER, capacity, dropWhenFull, dropped);
        return new CustomRequestLog(lines, format);
    }

    /** The line as it is, one per event. */
    private static final class MessageLayout extends PatternLayoutBase<ILoggingEvent> {
        MessageLayout(LoggerContext context) {
            setContext(context);
        }

        @Override
        public String doLayout(ILoggingEvent event) {
            return event.getFormattedMessage() + CoreConstants.LINE_SEPARATOR;
        }

        @Override
        protected Map<String, Supplier<DynamicConverter>> getDefaultConverterSupplierMap() {
            return Map.of();
        }

        @Override
        @Deprecated
        public Map<String, String> getDefaultConverterMap() {
            return Map.of();
        }
    }
}
