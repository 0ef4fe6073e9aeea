package com.example.threading.requestlog;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.AsyncAppenderBase;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.pattern.DynamicConverter;
import ch.qos.logback.core.pattern.PatternLayoutBase;
import ch.qos.logback.core.spi.AppenderAttachableImpl;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.eclipse.jetty.server.CustomRequestLog;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.slf4j.LoggerFactory;

/**
 * {@code server.requestLog.type: jetty}: the request log as Jetty's {@link CustomRequestLog} formats it, one line per
 * request, handed as text to Dropwizard's logback appenders (console, file, syslog; asynchronous). Dropwizard's
 * default ({@code logback-access}) builds an access event per request and copies its headers, cookies and attributes on
 * the answering thread before the line is queued: when one event answered 1,000 parked polls, 41 % of the batch's
 * samples outside the JIT compiler (docs/cost.md, "A batch answer"). Here the answering thread formats one string and
 * queues it.
 *
 * <p>{@code format} is Jetty's {@code CustomRequestLog} syntax. A line the appender's queue cannot take (a full queue
 * under {@code neverBlock}) is dropped and counted in {@link #dropped()}.
 */
@JsonTypeName("jetty")
public final class JettyRequestLogFactory implements RequestLogFactory<RequestLog> {

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
        Logger logger = (Logger) LoggerFactory.getLogger("http.request");
        logger.setAdditive(false);
        LoggerContext context = logger.getLoggerContext();
        AppenderAttachableImpl<ILoggingEvent> attached = new AppenderAttachableImpl<>();
        for (AppenderFactory<ILoggingEvent> appender : appenders) {
            attached.addAppender(appender.build(context, name, (loggerContext, timeZone) -> new MessageLayout(loggerContext),
                    new NullLevelFilterFactory<>(), new AsyncLoggingEventAppenderFactory()));
        }
        return new CustomRequestLog(new LineWriter(attached, context, dropped), format);
    }

    /** Hands each line to the appenders as an INFO event of logger {@code http.request}. */
    private static final class LineWriter extends AbstractLifeCycle implements RequestLog.Writer {
        private final AppenderAttachableImpl<ILoggingEvent> appenders;
        private final List<AsyncAppenderBase<ILoggingEvent>> dropping;
        private final LoggerContext context;
        private final LongAdder dropped;

        LineWriter(AppenderAttachableImpl<ILoggingEvent> appenders, LoggerContext context, LongAdder dropped) {
            this.appenders = appenders;
            this.context = context;
            this.dropped = dropped;
            List<AsyncAppenderBase<ILoggingEvent>> async = new ArrayList<>();
            appenders.iteratorForAppenders().forEachRemaining(appender -> {
                if (appender instanceof AsyncAppenderBase<ILoggingEvent> queue && queue.isNeverBlock()) {
                    async.add(queue);
                }
            });
            this.dropping = List.copyOf(async);
        }

        @Override
        public void write(String line) {
            for (AsyncAppenderBase<ILoggingEvent> queue : dropping) {
                if (queue.getRemainingCapacity() == 0) {
                    dropped.increment(); // a neverBlock appender drops what its full queue cannot take
                }
            }
            LoggingEvent event = new LoggingEvent();
            event.setLevel(Level.INFO);
            event.setLoggerName("http.request");
            event.setMessage(line);
            event.setTimeStamp(System.currentTimeMillis());
            event.setLoggerContext(context);
            event.setMDCPropertyMap(Map.of()); // the line carries its request id; the answering thread's MDC is not copied
            appenders.appendLoopOnAppenders(event);
        }

        @Override
        protected void doStop() throws Exception {
            appenders.detachAndStopAllAppenders();
            super.doStop();
        }
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
