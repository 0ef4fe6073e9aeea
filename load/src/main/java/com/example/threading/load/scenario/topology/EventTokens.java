package com.example.threading.load.scenario.topology;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The deployment's credentials: it runs with {@code events.auth.type: jwt} and an HS256 secret from the environment
 * ({@code EVENTS_AUTH_SECRET}); the tool makes a fresh secret per run and mints, with nimbus-jose-jwt, the tokens its
 * checks and traffic send: {@code {"events": {"subscribe": [...], "publish": [...]}}} with an expiry.
 *
 * <p>Thread-safety: immutable.
 */
final class EventTokens {

    /** The variable of the compose file that carries the secret. */
    static final String SECRET_VARIABLE = "EVENTS_AUTH_SECRET";

    private final String secret;

    private EventTokens(String secret) {
        this.secret = secret;
    }

    /** A fresh secret of 32 random bytes, as 64 hex characters (what {@code openssl rand -hex 32} gives). */
    static EventTokens fresh() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return new EventTokens(HexFormat.of().formatHex(bytes));
    }

    /** The secret, for the compose file's environment. */
    String secret() {
        return secret;
    }

    /** A token that may subscribe to {@code subscribe} and publish on {@code publish} (names or prefix*) for {@code lifetime}. */
    String mint(List<String> subscribe, List<String> publish, Duration lifetime) {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject("threading-load")
                .expirationTime(Date.from(Instant.now().plus(lifetime)))
                .claim("events", Map.of("subscribe", subscribe, "publish", publish)).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
        try {
            jwt.sign(new MACSigner(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a token with the run's secret", e);
        }
        return jwt.serialize();
    }

    /** A token for every topic and both actions, for {@code lifetime}. */
    String everyTopic(Duration lifetime) {
        return mint(List.of("*"), List.of("*"), lifetime);
    }
}
