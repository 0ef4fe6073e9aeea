package com.example.threading.events.access;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Who may read and publish which topic: the seam between the events endpoints and an access policy. For every
 * subscription ({@code GET /events}, {@code GET /events/blocking}, {@code GET /events/stream}) and every publish
 * ({@code POST /events}) the servlets ask it first who is calling ({@link #authenticate}, from the request's head
 * alone: its body is never read for this), then, once the topics asked for are parsed, whether the caller's {@link
 * TopicGrant} covers every one of them. A refused request is answered there and then: it parks nothing, opens no
 * stream, creates no topic and reads no history.
 *
 * <p>{@code events.auth} chooses the policy ({@link TopicAccessFactory}): {@code open} (the default, {@link
 * OpenTopicAccess}) keeps subscriptions open to all and publishing under {@code events.publishToken}; a sub-package
 * adds e.g. JWTs whose claims list the topics per action ({@code events.access.jwt}).
 *
 * <p>Implementations are called concurrently from Jetty's request threads and must be thread-safe.
 */
public interface TopicAccess {

    /** What a request wants to do with the topics it names. */
    enum Action {
        /** Read a topic's events: a poll ({@code /events}, {@code /events/blocking}) or a stream ({@code /events/stream}). */
        SUBSCRIBE,
        /** Publish an event on a topic. */
        PUBLISH
    }

    /**
     * Decides from the request's head (headers, query, remote address; never the body) who is calling: a decision
     * that {@linkplain AccessDecision#admitted() admits} the caller with a grant, or one that refuses the request
     * ({@code 400} for a credential given in two places at once, {@code 401} without valid credentials, {@code 403},
     * or {@code 503} when the credentials cannot be checked now).
     */
    AccessDecision authenticate(HttpServletRequest request, Action action);
}
