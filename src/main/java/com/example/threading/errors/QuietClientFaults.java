package com.example.threading.errors;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import io.dropwizard.lifecycle.Managed;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * Keeps clients from flooding the log with errors that are not the server's: a WARN or ERROR whose exception says
 * the client had gone ({@link ClientGone}), and Jetty's WARN "Bad Authority" for a request whose authority (e.g.
 * {@code CONNECT /path}) is not a host, are logged as one DEBUG line without a stack trace, on logger
 * {@code com.example.threading.errors.QuietClientFaults}, instead ({@link CountClientDisconnects} counts the
 * disconnects; the bad request itself gets its 400). Everything else, real server faults included, is logged as
 * before.
 *
 * <p>Who logs them: Jersey's {@code ServerRuntime$Responder} ("Error while closing the output stream in order to
 * commit response", SEVERE through JUL, ERROR in logback) whenever an answer, resumed or not, is written to a reset
 * connection or stream. A logback {@link TurboFilter} sees every logging call before any appender, whatever the
 * logger, so it also covers Jetty and Dropwizard should they log the same kind of failure.
 *
 * <p>Thread-safety: {@link #decide} runs on every thread that logs, concurrently; the filter holds no state of its
 * own (its logger is thread-safe). {@link #start()} and {@link #stop()} run on the lifecycle thread; logback's
 * filter list is a copy-on-write list.
 */
public final class QuietClientFaults extends TurboFilter implements Managed {

    private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(QuietClientFaults.class);
    private static final String JETTY_HOST_PORT = "org.eclipse.jetty.util.HostPort";
    private static final String BAD_AUTHORITY = "Bad Authority";

    /** A filter to install with {@link #start()}. */
    public QuietClientFaults() {
        setName(QuietClientFaults.class.getName());
    }

    /** Installs the filter in logback's context, replacing one a previous start left (tests start many apps). */
    @Override
    public void start() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.getTurboFilterList().removeIf(filter -> filter instanceof QuietClientFaults);
        context.addTurboFilter(this);
        super.start();
    }

    /** Removes the filter from logback's context. */
    @Override
    public void stop() {
        ((LoggerContext) LoggerFactory.getILoggerFactory()).getTurboFilterList().remove(this);
        super.stop();
    }

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
        if (level == null || !level.isGreaterOrEqual(Level.WARN)) {
            return FilterReply.NEUTRAL;
        }
        if (JETTY_HOST_PORT.equals(logger.getName()) && format != null && format.startsWith(BAD_AUTHORITY)) {
            LOG.debug("a client sent a bad authority ({}: {})", logger.getName(), format);
            return FilterReply.DENY;
        }
        Throwable thrown = t;
        if (thrown == null && params != null && params.length > 0 && params[params.length - 1] instanceof Throwable last) {
            thrown = last;
        }
        Throwable disconnect = ClientGone.cause(thrown);
        if (disconnect == null) {
            return FilterReply.NEUTRAL;
        }
        LOG.debug("client gone while an answer was written ({}: {}): {}", logger.getName(), format, disconnect.toString());
        return FilterReply.DENY;
    }
}
