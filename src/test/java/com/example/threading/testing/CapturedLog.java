package com.example.threading.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * What the service logs while a test runs: a logback {@link ListAppender} on the root logger, attached before
 * each test (after the server started: Dropwizard resets logback when it configures logging) and detached after
 * it. It sees what the appenders see, after every filter.
 * <pre>{@code
 * @RegisterExtension
 * final CapturedLog log = new CapturedLog();
 * ...
 * assertThat(log.atLeast(Level.WARN)).isEmpty();
 * }</pre>
 * Outside JUnit Jupiter (e.g. a jqwik container), call {@link #start()} and {@link #stop()}.
 *
 * <p>Thread-safety: the service's threads append concurrently (logback's {@code ListAppender} appends under the
 * appender's lock); read {@link #events} once the requests are done.
 */
public final class CapturedLog implements BeforeEachCallback, AfterEachCallback {

    /** Takes each event's MDC and thread on the thread that logs it (logback reads them lazily otherwise). */
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>() {
        @Override
        protected void append(ILoggingEvent event) {
            event.prepareForDeferredProcessing();
            super.append(event);
        }
    };
    private final Map<String, Level> levelsBefore = new LinkedHashMap<>();

    /** Starts capturing everything logged from now on (before each test when registered as an extension). */
    public void start() {
        synchronized (appender) {
            appender.list.clear();
        }
        appender.start();
        root().addAppender(appender);
    }

    /** Stops capturing (after each test when registered as an extension), and gives loggers back their levels. */
    public void stop() {
        root().detachAppender(appender);
        appender.stop();
        levelsBefore.forEach((name, level) -> logger(name).setLevel(level));
        levelsBefore.clear();
    }

    /** Lets {@code loggers} log at DEBUG until {@link #stop()} (the service's configuration may say INFO). */
    public CapturedLog debug(String... loggers) {
        for (String name : loggers) {
            levelsBefore.putIfAbsent(name, logger(name).getLevel());
            logger(name).setLevel(Level.DEBUG);
        }
        return this;
    }

    /** The events {@code logger} logged, each with the thread and the MDC it had when it logged. */
    public List<ILoggingEvent> of(String logger) {
        return events().stream().filter(event -> event.getLoggerName().equals(logger)).toList();
    }

    /**
     * The first event of {@code logger} whose MDC holds {@code value} under {@code key} (e.g. a request's id), waiting up
     * to 20 s for it: a line of a request may come from another thread after the client has its answer.
     */
    public ILoggingEvent firstWithMdc(String logger, String key, String value) {
        Await.until(() -> of(logger).stream().anyMatch(event -> value.equals(event.getMDCPropertyMap().get(key))),
                Duration.ofSeconds(20), logger + " logging with " + key + "=" + value);
        return of(logger).stream().filter(event -> value.equals(event.getMDCPropertyMap().get(key))).findFirst().orElseThrow();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        start();
    }

    /** Everything captured so far. */
    public List<ILoggingEvent> events() {
        synchronized (appender) {
            return List.copyOf(appender.list);
        }
    }

    /** The events at {@code level} or above, as "LEVEL logger: message" lines (for readable assertion failures). */
    public List<String> atLeast(Level level) {
        return events().stream()
                .filter(event -> event.getLevel().isGreaterOrEqual(level))
                .map(event -> event.getLevel() + " " + event.getLoggerName() + ": " + event.getFormattedMessage())
                .toList();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        stop();
    }

    private static Logger root() {
        return logger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }

    private static Logger logger(String name) {
        return ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(name);
    }
}
