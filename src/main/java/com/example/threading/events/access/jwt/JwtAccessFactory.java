package com.example.threading.events.access.jwt;

import com.example.threading.events.access.TopicAccess;
import com.example.threading.events.access.TopicAccessFactory;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeName;
import io.dropwizard.core.setup.Environment;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code events.auth.type: jwt}: every poll, stream and publish carries a signed JWT whose {@code events} claim lists
 * the topics it may subscribe to and publish on ({@link JwtAuthenticator}, {@link ClaimsAuthorizer}), with its
 * settings under {@code events.auth.jwt} ({@link JwtSettings}). {@code events.publishToken} is then not used: the token's
 * {@code publish} list decides. Known to Jackson once {@link JwtAccessBundle} is added.
 */
@JsonTypeName(JwtAccessFactory.TYPE)
public final class JwtAccessFactory implements TopicAccessFactory {

    /** The value of {@code events.auth.type}. */
    public static final String TYPE = "jwt";

    private static final Logger LOG = LoggerFactory.getLogger(JwtAccessFactory.class);

    @Valid
    @NotNull
    @JsonProperty
    private JwtSettings jwt = new JwtSettings();

    /** The {@code events.auth.jwt} settings. */
    public JwtSettings getJwt() {
        return jwt;
    }

    @Override
    public TopicAccess build(Environment environment, String publishToken) {
        if (publishToken != null && !publishToken.isBlank()) {
            LOG.warn("events.publishToken (EVENTS_PUBLISH_TOKEN) is not used with events.auth.type jwt: a token's"
                    + " events.publish claim decides who may publish");
        }
        JwtAuthenticator authenticator = new JwtAuthenticator(jwt.algorithm(), VerificationKeys.of(jwt), jwt.issuer(),
                jwt.audience(), jwt.clockSkew());
        LOG.info("events.auth: JWTs signed {} required on /events, /events/blocking and /events/stream (issuer {},"
                        + " audience {}, access_token in the query {})",
                jwt.algorithm(), jwt.issuer() == null ? "not checked" : jwt.issuer(),
                jwt.audience() == null ? "not checked" : jwt.audience(),
                jwt.queryToken() ? "accepted on polls and streams" : "refused");
        return new AuthenticatedTopicAccess<>(authenticator, new ClaimsAuthorizer(),
                principal -> Optional.of(principal.acceptedUntil()), jwt.maxTokenLength(), jwt.queryToken());
    }
}
