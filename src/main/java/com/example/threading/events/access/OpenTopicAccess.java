package com.example.threading.events.access;

import jakarta.servlet.http.HttpServletRequest;

/**
 * {@code events.auth.type: open}, the default: anyone who reaches the port may subscribe to any topic; publishing,
 * on any topic, follows {@link PublishAccess} ({@code events.publishToken}, or clients on this machine only without
 * one).
 */
public final class OpenTopicAccess implements TopicAccess {

    /** The challenge of a publish without the right token. */
    static final String CHALLENGE = "Bearer realm=\"events\"";

    private static final AccessDecision EVERYONE = AccessDecision.admit(TopicGrant.EVERY_TOPIC);

    private final PublishAccess publishing;

    public OpenTopicAccess(PublishAccess publishing) {
        this.publishing = publishing;
    }

    @Override
    public AccessDecision authenticate(HttpServletRequest request, Action action) {
        if (action == Action.SUBSCRIBE) {
            return EVERYONE;
        }
        boolean forwarded = request.getHeader("Forwarded") != null || request.getHeader("X-Forwarded-For") != null;
        return switch (publishing.check(request.getHeader("Authorization"), request.getRemoteAddr(), forwarded)) {
            case ALLOWED -> EVERYONE;
            case BAD_TOKEN -> AccessDecision.refuse(401,
                    "a valid bearer token is required to publish (Authorization: Bearer <token>)", CHALLENGE);
            case NOT_LOCAL -> AccessDecision.refuse(403, "publishing is open to clients on this machine only, because no"
                    + " publish token is set: set EVENTS_PUBLISH_TOKEN (events.publishToken) on the server and send"
                    + " Authorization: Bearer <token>", null);
        };
    }
}
