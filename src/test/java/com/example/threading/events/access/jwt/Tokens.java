package com.example.threading.events.access.jwt;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;

/**
 * Tokens for the tests, signed with nimbus: claims with an {@code events} claim listing topics per action, an expiry
 * relative to now.
 *
 * <p>Thread-safety: stateless.
 */
public final class Tokens {

    /** A secret of 32 bytes, enough for HS256. */
    public static final String SECRET = "test-secret-of-at-least-32-bytes-for-hs256";

    private Tokens() {
    }

    /** Claims for {@code sub}, expiring {@code lifetime} from now, with the topics it may subscribe to and publish on. */
    public static JWTClaimsSet.Builder claims(String subject, Duration lifetime, List<String> subscribe, List<String> publish) {
        return new JWTClaimsSet.Builder().subject(subject)
                .expirationTime(Date.from(Instant.now().plus(lifetime)))
                .claim("events", Map.of("subscribe", subscribe, "publish", publish));
    }

    /** {@code claims} signed HS256 with {@code secret}. */
    public static String hs256(String secret, JWTClaimsSet claims) {
        try {
            return sign(new MACSigner(secret.getBytes(StandardCharsets.UTF_8)), JWSAlgorithm.HS256, claims);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code claims} signed with {@code signer} under {@code algorithm}. */
    public static String sign(JWSSigner signer, JWSAlgorithm algorithm, JWTClaimsSet claims) {
        SignedJWT jwt = new SignedJWT(new JWSHeader(algorithm), claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }
}
