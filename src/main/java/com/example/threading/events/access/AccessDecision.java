package com.example.threading.events.access;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a {@link TopicAccess} decided about one request: the caller admitted with a {@link TopicGrant}, or the request
 * refused with a status, a message for the JSON body and, for {@code 400}/{@code 401}/{@code 403} of a bearer scheme,
 * the {@code WWW-Authenticate} challenge. A message names nothing secret: not the key, not which claim failed.
 */
public final class AccessDecision {

    private static final Set<Integer> REFUSALS = Set.of(400, 401, 403, 503);

    private final int status;
    private final String message;
    private final String challenge;
    private final TopicGrant grant;

    private AccessDecision(int status, String message, String challenge, TopicGrant grant) {
        this.status = status;
        this.message = message;
        this.challenge = challenge;
        this.grant = grant;
    }

    /** The caller is who it says; {@code grant} says which topics it may read and publish. */
    public static AccessDecision admit(TopicGrant grant) {
        return new AccessDecision(200, null, null, Objects.requireNonNull(grant, "grant"));
    }

    /**
     * The request is refused with {@code status}: {@code 400} (credentials malformed or given twice), {@code 401} (none,
     * or not valid), {@code 403} (valid, but not for this), {@code 503} (they cannot be checked now; answered with
     * {@code Retry-After}). {@code challenge} is the {@code WWW-Authenticate} value, or null for none.
     */
    public static AccessDecision refuse(int status, String message, String challenge) {
        if (!REFUSALS.contains(status)) {
            throw new IllegalArgumentException("a refusal is one of " + REFUSALS + ", not " + status);
        }
        return new AccessDecision(status, Objects.requireNonNull(message, "message"), challenge, null);
    }

    /** Whether the caller is admitted (then {@link #grant} is set). */
    public boolean admitted() {
        return grant != null;
    }

    /** The caller's grant; only for an admitted caller. */
    public TopicGrant grant() {
        if (grant == null) {
            throw new IllegalStateException("a refused request has no grant");
        }
        return grant;
    }

    /** The refusal's status (200 for an admitted caller). */
    public int status() {
        return status;
    }

    /** The refusal's message, for the JSON body. */
    public String message() {
        return message;
    }

    /** The refusal's {@code WWW-Authenticate} value, if any. */
    public Optional<String> challenge() {
        return Optional.ofNullable(challenge);
    }

    @Override
    public String toString() {
        return admitted() ? "admitted" : status + " " + message;
    }
}
