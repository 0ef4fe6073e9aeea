package com.example.threading.events.access.jwt;

import com.example.threading.events.access.AccessDecision;
import com.example.threading.events.access.TopicAccess;
import com.example.threading.events.access.TopicGrant;
import io.dropwizard.auth.AuthenticationException;
import io.dropwizard.auth.Authenticator;
import io.dropwizard.auth.Authorizer;
import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-topic access with Dropwizard's auth module: the request's bearer token ({@link BearerTokens}) goes to an
 * {@link Authenticator Authenticator&lt;String, P&gt;}, and each topic asked for to an {@link Authorizer
 * Authorizer&lt;P&gt;} as the role {@code subscribe:<topic>} or {@code publish:<topic>} ({@link #role}). The events
 * endpoints are plain servlets, not Jersey resources, so Dropwizard's {@code AuthFilter} does not apply; its two
 * interfaces do, and any implementation of them plugs in here: the JWT one of this package
 * ({@link JwtAuthenticator}, {@link ClaimsAuthorizer}), a database lookup wrapped in Dropwizard's
 * {@code CachingAuthenticator}, or a call to an introspection endpoint.
 *
 * <p>An authenticator that returns empty makes the answer {@code 401} with {@code error="invalid_token"}; one that
 * throws {@link AuthenticationException} (it cannot check now) makes it {@code 503} with {@code Retry-After}. A
 * principal whose {@code acceptedUntil} has passed is refused {@code 401} too, so a caching authenticator (Dropwizard's
 * {@code CachingAuthenticator}) cannot keep an expired token alive.
 * The authorizer is called with a null request context.
 *
 * <p>Immutable; the authenticator, authorizer and expiry function it is given must be thread-safe.
 *
 * @param <P> the principal the authenticator returns
 */
public final class AuthenticatedTopicAccess<P extends Principal> implements TopicAccess {

    private static final Logger LOG = LoggerFactory.getLogger(AuthenticatedTopicAccess.class);

    private final Authenticator<String, P> authenticator;
    private final Authorizer<P> authorizer;
    private final Function<P, Optional<Instant>> acceptedUntil;
    private final BearerTokens tokens;

    /**
     * @param authenticator  from a bearer token to its principal (empty: not valid)
     * @param authorizer     whether a principal has the role {@link #role}{@code (action, topic)}
     * @param acceptedUntil  until when the principal's credentials are accepted (a poll waits, a stream stays open, at
     *                       most until then); empty: no end
     * @param maxTokenLength longer tokens are refused {@code 401} without reaching the authenticator
     * @param queryToken     whether a subscription may carry its token as {@code ?access_token=} (see {@link BearerTokens})
     */
    public AuthenticatedTopicAccess(Authenticator<String, P> authenticator, Authorizer<P> authorizer,
                                    Function<P, Optional<Instant>> acceptedUntil, int maxTokenLength, boolean queryToken) {
        this.authenticator = authenticator;
        this.authorizer = authorizer;
        this.acceptedUntil = acceptedUntil;
        this.tokens = new BearerTokens(maxTokenLength, queryToken);
    }

    /** The role an {@link Authorizer} is asked for: {@code subscribe:room-1}, {@code publish:room-1}. */
    public static String role(Action action, String topic) {
        return action.name().toLowerCase(Locale.ROOT) + ":" + topic;
    }

    @Override
    public AccessDecision authenticate(HttpServletRequest request, Action action) {
        return decide(Collections.list(request.getHeaders("Authorization")), request.getQueryString(), action);
    }

    /** {@link #authenticate}, from the request's {@code Authorization} headers and raw query string. */
    AccessDecision decide(List<String> authorizations, String query, Action action) {
        BearerTokens.Found found = tokens.find(authorizations, query, action);
        if (found.refusal() != null) {
            return found.refusal();
        }
        Optional<P> principal;
        try {
            principal = authenticator.authenticate(found.token());
        } catch (AuthenticationException cannotCheck) {
            LOG.warn("the events authenticator could not check a token: {}", cannotCheck.getMessage());
            return AccessDecision.refuse(503, "credentials cannot be checked now; retry later", null);
        }
        if (principal.isEmpty()) {
            return AccessDecision.refuse(401, "the bearer token is not valid: a bad signature or algorithm, expired, not yet"
                    + " valid, or not issued for this service", BearerTokens.INVALID_TOKEN);
        }
        Grant grant = new Grant(principal.get());
        if (grant.until.filter(end -> !end.isAfter(Instant.now())).isPresent()) {
            // A principal past its end (e.g. from a caching authenticator) is refused like the token it came from.
            return AccessDecision.refuse(401, "the bearer token has expired", BearerTokens.INVALID_TOKEN);
        }
        return AccessDecision.admit(grant);
    }

    /** What an authenticated principal may do: asked of the authorizer, topic by topic. */
    private final class Grant implements TopicGrant {
        private final P principal;
        private final Optional<Instant> until;

        Grant(P principal) {
            this.principal = principal;
            this.until = acceptedUntil.apply(principal);
        }

        @Override
        public boolean allows(Action action, String topic) {
            return authorizer.authorize(principal, role(action, topic), null);
        }

        @Override
        public Optional<Instant> expiresAt() {
            return until;
        }

        @Override
        public Optional<String> caller() {
            return Optional.ofNullable(principal.getName());
        }
    }
}
