package com.example.threading.events.http;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * What a poll may ask for, shared by both long-poll servlets: timeouts and topics per poll; parses a poll's query or
 * answers 400.
 */
public record PollLimits(long defaultTimeoutSeconds, long maxTimeoutSeconds, int maxTopicsPerPoll, JsonResponses json) {

    /** The poll's parameters, or null after answering {@code 400} with the reason. */
    PollParameters parseOrReject(HttpServletRequest request, HttpServletResponse response) throws IOException {
        try {
            return PollParameters.parse(request, defaultTimeoutSeconds, maxTimeoutSeconds, maxTopicsPerPoll);
        } catch (IllegalArgumentException e) {
            json.writeError(response, 400, e.getMessage());
            return null;
        }
    }
}
