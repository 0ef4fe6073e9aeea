package com.example.threading.load.engine.recording;

import java.io.EOFException;
import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.TimeoutException;

/** How one request ended, from the client's side; every request sent ends in exactly one of these. */
public enum Outcome {
    /** 2xx (and 204): the service answered. */
    OK("ok"),
    /** 503: the service refused (pool or queue full, async timeout); the clean way to degrade. */
    REJECTED_503("503"),
    /** 501: the pattern is not available on the server's JDK (virtual threads on 17); not a failure. */
    UNAVAILABLE_501("501"),
    /** Any other HTTP status (4xx, 500, ...). */
    OTHER_STATUS("other status"),
    /** The connection was refused, reset or closed before the response was complete. */
    RESET("reset"),
    /** The client's idle timeout expired while waiting for the response. */
    TIMEOUT("timeout"),
    /** Still unanswered when the phase's hard time limit cut it off. */
    UNANSWERED("unanswered"),
    /** The client refused to send it (its own queue was full). */
    CLIENT_REJECTED("client rejected"),
    /** Any other failure. */
    OTHER_FAILURE("other failure");

    private final String label;

    Outcome(String label) {
        this.label = label;
    }

    /** Short column label for tables. */
    public String label() {
        return label;
    }

    /** The outcome of an HTTP status. */
    public static Outcome ofStatus(int status) {
        if (status >= 200 && status < 300) {
            return OK;
        }
        if (status == 503) {
            return REJECTED_503;
        }
        if (status == 501) {
            return UNAVAILABLE_501;
        }
        return OTHER_STATUS;
    }

    /** The outcome of a failed exchange, from the failure's cause chain. */
    public static Outcome ofFailure(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof TimeoutException) {
                return TIMEOUT;
            }
            if (cause instanceof java.util.concurrent.RejectedExecutionException) {
                return CLIENT_REJECTED;
            }
            if (cause instanceof EOFException || cause instanceof ClosedChannelException
                    || cause instanceof ConnectException || isReset(cause)) {
                return RESET;
            }
        }
        return OTHER_FAILURE;
    }

    private static boolean isReset(Throwable cause) {
        String message = String.valueOf(cause.getMessage()).toLowerCase(java.util.Locale.ROOT);
        return message.contains("reset") || message.contains("broken pipe") || message.contains("closed")
                || message.contains("refused") || message.contains("eof");
    }
}
