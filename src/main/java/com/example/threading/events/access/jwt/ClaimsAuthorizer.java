package com.example.threading.events.access.jwt;

import com.example.threading.events.access.TopicAccess;
import io.dropwizard.auth.Authorizer;
import jakarta.ws.rs.container.ContainerRequestContext;

/**
 * Dropwizard's {@link Authorizer} over a token's claims: the role {@code subscribe:<topic>} is granted when the
 * token's {@code events.subscribe} list matches the topic, {@code publish:<topic>} when {@code events.publish} does
 * ({@link TopicPatterns}); any other role is refused.
 */
final class ClaimsAuthorizer implements Authorizer<TopicPrincipal> {

    private static final String SUBSCRIBE = AuthenticatedTopicAccess.role(TopicAccess.Action.SUBSCRIBE, "");
    private static final String PUBLISH = AuthenticatedTopicAccess.role(TopicAccess.Action.PUBLISH, "");

    @Override
    public boolean authorize(TopicPrincipal principal, String role, ContainerRequestContext requestContext) {
        if (role.startsWith(SUBSCRIBE)) {
            return principal.subscribe().matches(role.substring(SUBSCRIBE.length()));
        }
        if (role.startsWith(PUBLISH)) {
            return principal.publish().matches(role.substring(PUBLISH.length()));
        }
        return false;
    }
}
