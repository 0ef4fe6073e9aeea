package com.example.threading.longpoll;

import jakarta.servlet.http.HttpServletRequest;

/**
 * The query of a poll: {@code after} (the last id the client has, absent = wait for the next event) and
 * {@code timeout} (whole seconds, 1..max).
 *
 * <p>Thread-safety: immutable.
 */
record PollParameters(Long after, long timeoutMs) {

    /** Parses and checks the query; throws {@link IllegalArgumentException} with a message fit for a 400. */
    static PollParameters parse(HttpServletRequest request, long defaultTimeoutSeconds, long maxTimeoutSeconds) {
        return parse(request.getParameter("after"), request.getParameter("timeout"), defaultTimeoutSeconds, maxTimeoutSeconds);
    }

    /** Parses and checks the two parameters' raw values (null when absent); throws {@link IllegalArgumentException} for a 400. */
    static PollParameters parse(String afterText, String timeoutText, long defaultTimeoutSeconds, long maxTimeoutSeconds) {
        Long after = null;
        if (afterText != null) {
            after = parseLong("after", afterText);
            if (after < 0) {
                throw new IllegalArgumentException("after must be an event id >= 0, was " + afterText);
            }
        }
        long timeoutSeconds = defaultTimeoutSeconds;
        if (timeoutText != null) {
            timeoutSeconds = parseLong("timeout", timeoutText);
            if (timeoutSeconds < 1 || timeoutSeconds > maxTimeoutSeconds) {
                throw new IllegalArgumentException(
                        "timeout must be between 1 and " + maxTimeoutSeconds + " seconds, was " + timeoutText);
            }
        }
        return new PollParameters(after, timeoutSeconds * 1000);
    }

    private static long parseLong(String name, String text) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, was '" + text + "'");
        }
    }
}
