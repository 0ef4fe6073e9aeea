package com.example.threading.events.access.jwt;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.ConfigurableJWTProcessor;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.dropwizard.auth.Authenticator;
import java.text.ParseException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dropwizard's {@link Authenticator} for signed JWTs, verified by nimbus-jose-jwt (never parsed by hand): the
 * signature with the configured keys and the one configured algorithm only — which refuses {@code "alg": "none"}, a
 * token signed with another algorithm, and an HMAC token made with an RSA or EC public key as its secret — then
 * {@code exp} (required) and {@code nbf} within the clock skew, {@code iss} and {@code aud} when configured. The
 * principal carries the token's {@code events} claim:
 * <pre>{@code
 * {"sub": "alice", "exp": 1767225600, "events": {"subscribe": ["room-1", "lobby-*"], "publish": ["room-1"]}}
 * }</pre>
 * A claim that is not of that shape (not an object, not lists of topic names and {@code prefix*}es) makes the token
 * invalid. Why a token was refused is logged at DEBUG, never answered.
 *
 * <p>Nimbus' processor is thread-safe once configured, which the constructor does; nothing else changes.
 */
final class JwtAuthenticator implements Authenticator<String, TopicPrincipal> {

    /** The claim that lists the topics per action. */
    static final String CLAIM = "events";

    private static final Logger LOG = LoggerFactory.getLogger(JwtAuthenticator.class);
    /** RFC 9068's {@code typ} of a JWT access token, and its long form. */
    private static final JOSEObjectType AT_JWT = new JOSEObjectType("at+jwt");
    private static final JOSEObjectType APPLICATION_AT_JWT = new JOSEObjectType("application/at+jwt");

    private final ConfigurableJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
    private final Duration clockSkew;

    /**
     * Verifies tokens signed with {@code algorithm} by one of {@code keys}; {@code issuer} and {@code audience}
     * (null: not checked) must match; {@code exp} and {@code nbf} may be off by {@code clockSkew}.
     */
    JwtAuthenticator(JWSAlgorithm algorithm, JWKSource<SecurityContext> keys, String issuer, String audience, Duration clockSkew) {
        this.clockSkew = clockSkew;
        processor.setJWSKeySelector(new KeysForToken(algorithm, keys));
        // typ: JWT (Keycloak, Auth0, Entra ID), none (Okta), or RFC 9068's access-token type; anything else is refused.
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT, AT_JWT, APPLICATION_AT_JWT, null));
        JWTClaimsSet exact = issuer == null ? null : new JWTClaimsSet.Builder().issuer(issuer).build();
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(
                audience == null ? null : Set.of(audience), exact, Set.of("exp"), null);
        claims.setMaxClockSkew((int) clockSkew.toSeconds());
        processor.setJWTClaimsSetVerifier(claims);
    }

    @Override
    public Optional<TopicPrincipal> authenticate(String token) {
        try {
            JWTClaimsSet claims = processor.process(token, null);
            Map<String, Object> events = claims.getJSONObjectClaim(CLAIM);
            String subject = claims.getSubject();
            return Optional.of(new TopicPrincipal(subject == null ? "anonymous" : subject,
                    patterns(events, "subscribe"), patterns(events, "publish"),
                    claims.getExpirationTime().toInstant().plus(clockSkew)));
        } catch (ParseException | BadJOSEException | JOSEException | IllegalArgumentException refused) {
            LOG.debug("bearer token refused: {}", refused.getMessage());
            return Optional.empty();
        } catch (RuntimeException malformed) {
            // Whatever a hostile token makes the parser throw, it is a bad token (401), never a server error (500).
            LOG.debug("bearer token refused, malformed: {}", malformed.toString());
            return Optional.empty();
        }
    }

    /** The topics the claim lists for {@code action}: none when the claim or the action is absent. */
    private static TopicPatterns patterns(Map<String, Object> events, String action) {
        Object entries = events == null ? null : events.get(action);
        if (entries == null) {
            return TopicPatterns.NONE;
        }
        if (!(entries instanceof List<?> list) || !list.stream().allMatch(String.class::isInstance)) {
            throw new IllegalArgumentException(CLAIM + "." + action + " is not a list of topic names");
        }
        return TopicPatterns.of(list.stream().map(String.class::cast).toList());
    }
}
