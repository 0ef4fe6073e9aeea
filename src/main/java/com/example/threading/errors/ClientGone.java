package com.example.threading.errors;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * Tells a failure that means "the client went away" (it reset or closed its connection or HTTP/2 stream before the
 * answer was complete) from a server fault: Jetty's {@code EofException} anywhere in the causes, an
 * {@code IOException} "Connection reset by peer" or "Broken pipe", a {@link ClosedChannelException} (what Jetty fails
 * the open streams of an HTTP/2 connection with when the client closed it without a GOAWAY, and what a write to a
 * connection already closed gets), Jetty's "Request/Response does not exist (likely recycled)" — what a late
 * writer gets after Jetty completed a request whose HTTP/2 stream was reset — or Jetty's "Idle timeout expired", a
 * {@link TimeoutException} an answer's write gets when the client read nothing for the connector's idle timeout.
 *
 * <p>Thread-safety: stateless.
 */
final class ClientGone {

    private static final String JETTY_EOF = "org.eclipse.jetty.io.EofException";
    private static final String RECYCLED = "Request/Response does not exist";
    private static final String IDLE = "Idle timeout expired";
    private static final int MAX_CAUSES = 16;

    private ClientGone() {
    }

    /** The exception in {@code failure}'s causes that says the client had gone, or null when none does. */
    static Throwable cause(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = cause.getCause()) {
            if (JETTY_EOF.equals(cause.getClass().getName()) || cause instanceof ClosedChannelException) {
                return cause;
            }
            String message = cause.getMessage() == null ? "" : cause.getMessage();
            String lower = message.toLowerCase(Locale.ROOT);
            if (cause instanceof IOException && (lower.contains("connection reset by peer") || lower.contains("broken pipe"))) {
                return cause;
            }
            if (cause instanceof IllegalStateException && message.startsWith(RECYCLED)) {
                return cause;
            }
            if (cause instanceof TimeoutException && message.startsWith(IDLE)) {
                return cause;
            }
        }
        return null;
    }
}
