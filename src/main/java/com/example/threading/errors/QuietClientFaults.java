package com.example.threading.errors;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import io.dropwizard.lifecycle.Managed;
import java.util.Arrays;
import java.util.zip.ZipException;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;

/**
 * Keeps clients from flooding the log with errors that are not the server's. These WARN and ERROR events are logged
 * as one DEBUG line without a stack trace, on logger {@code com.example.threading.errors.QuietClientFaults},
 * instead; the client still gets its error answer, and {@link CountClientDisconnects} counts the disconnects:
 * <ul>
 * <li>an exception that says the client had gone ({@link ClientGone}), e.g. Jersey's "Error while closing the output
 * stream in order to commit response";</li>
 * <li>Jetty's HTTP parser's warnings about what a client sent (e.g. "Encountered multiple `Host` headers");</li>
 * <li>Jetty's warnings about a request's authority ("Bad Authority" for {@code CONNECT /path}, "Bad IPv6Address"
 * for {@code http://127.0.0.1:99999/}), which only client input causes;</li>
 * <li>a {@code ZipException} (a client's {@code Content-Encoding: gzip} body that does not inflate; Dropwizard answers
 * it 400), which Jetty's servlet channel logs as a WARN.</li>
 * </ul>
 * Everything else, real server faults included, is logged as before.
 *
 * <p>Who logs them: Jersey's {@code ServerRuntime$Responder} ("Error while closing the output stream in order to
 * commit response", SEVERE through JUL, ERROR in logback) whenever an answer, resumed or not, is written to a reset
 * connection or stream. A logback {@link TurboFilter} sees every logging call before any appender, whatever the
 * logger, so it also covers Jetty and Dropwizard should they log the same kind of failure.
 */
public final class QuietClientFaults extends TurboFilter implements Managed {

    private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(QuietClientFaults.class);
    private static final String JETTY_HOST_PORT = "org.eclipse.jetty.util.HostPort";
    private static final String JETTY_HTTP_PARSER = "org.eclipse.jetty.http.HttpParser";
    private static final String JETTY = "org.eclipse.jetty.";
    private static final String ZIP_EXCEPTION = ZipException.class.getName();
    private static final int MAX_CAUSES = 16;

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
        Throwable thrown = t;
        if (thrown == null && params != null && params.length > 0 && params[params.length - 1] instanceof Throwable last) {
            thrown = last;
        }
        String text = params == null || params.length == 0 ? format : format + " " + Arrays.toString(params);
        String clientFault = clientFault(logger.getName(), text, thrown);
        if (clientFault == null) {
            return FilterReply.NEUTRAL;
        }
        LOG.debug("{} ({}: {})", clientFault, logger.getName(), format);
        return FilterReply.DENY;
    }

    /** What the client did wrong, when the event ({@code format} with its parameters) is about that; null for anything else. */
    static String clientFault(String loggerName, String format, Throwable thrown) {
        Throwable gone = ClientGone.cause(thrown);
        if (gone != null) {
            return "client gone while an answer was written: " + gone;
        }
        if (JETTY_HTTP_PARSER.equals(loggerName) && thrown == null) {
            return "a client sent a request the HTTP parser warns about";
        }
        if (JETTY_HOST_PORT.equals(loggerName) && thrown == null) {
            return "a client sent a bad authority";
        }
        Throwable cause = thrown;
        for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = cause.getCause()) {
            if (cause instanceof ZipException) {
                return "a client sent a compressed body that does not inflate: " + cause.getMessage();
            }
        }
        // Jetty's servlet channel may log that one as text only: "handleException /events java.util.zip.ZipException: …".
        if (loggerName.startsWith(JETTY) && format != null && format.contains(ZIP_EXCEPTION)) {
            return "a client sent a compressed body that does not inflate";
        }
        return null;
    }
}
