package com.example.threading.errors;

import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * Tells a failure that means "the client went away" (it reset or closed its connection or HTTP/2 stream before the
 * answer was complete) from a server fault: Jetty's {@code EofException} anywhere in the causes, an
 * {@code IOException} "Connection reset by peer" or "Broken pipe", a {@link ClosedChannelException} (what Jetty fails
 * the open streams of an HTTP/2 connection with when the client closed it without a GOAWAY, and what a write to a
 * connection already closed gets), Jetty's "Request/Response does not exist (likely recycled)" — what a late
 * writer gets after Jetty completed a request whose HTTP/2 stream was reset — Jetty's "Idle timeout expired", a
 * {@link TimeoutException} an answer's write gets when the client read nothing for the connector's idle timeout, or a
 * plain {@link EOFException} "reset", what Jetty resets each stream of an HTTP/2 session with when it fails the
 * session; the streams themselves fail with an {@code IOException} {@code "<error code>/<reason>"}, counted here when the
 * code is one a client's frames cause (e.g. "protocol_error/invalid_data_frame", "enhance_your_calm_error/…" for a
 * flood), never for "internal_error".
 */
final class ClientGone {

    private static final String JETTY_EOF = "org.eclipse.jetty.io.EofException";
    private static final String RECYCLED = "Request/Response does not exist";
    private static final String IDLE = "Idle timeout expired";
    private static final String STREAM_RESET = "reset";
    /** HTTP/2 error codes (RFC 9113, section 7) a peer's frames cause, in Jetty's lower-case names. */
    private static final Set<String> CLIENT_HTTP2_ERRORS = Set.of("protocol_error", "flow_control_error",
            "stream_closed_error", "frame_size_error", "compression_error", "enhance_your_calm_error");
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
            if (cause instanceof EOFException && message.equals(STREAM_RESET)) {
                return cause;
            }
            int slash = message.indexOf('/');
            if (cause instanceof IOException && slash > 0 && CLIENT_HTTP2_ERRORS.contains(message.substring(0, slash))) {
                return cause;
            }
        }
        return null;
    }
}
