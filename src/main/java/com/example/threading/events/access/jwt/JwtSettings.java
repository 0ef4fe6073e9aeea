package com.example.threading.events.access.jwt;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.nimbusds.jose.JWSAlgorithm;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MaxDuration;
import io.dropwizard.validation.MinDuration;
import io.dropwizard.validation.ValidationMethod;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@code events.auth.jwt} settings: which algorithm and key verify a token, which issuer and audience it must name,
 * the clock skew tolerated, the longest token, and whether a poll or a stream may carry its token in the query. A
 * setting that cannot work (no key, a key of the wrong kind, a secret shorter than the hash) refuses to start, naming
 * the key.
 */
public final class JwtSettings {

    /** The algorithms a token may be signed with (one is configured); never {@code none}. */
    static final List<String> ALGORITHMS = List.of("HS256", "HS384", "HS512", "RS256", "RS384", "RS512",
            "PS256", "PS384", "PS512", "ES256", "ES384", "ES512");

    /** The one algorithm accepted. */
    @NotNull
    @JsonProperty
    private String algorithm = "HS256";

    /** The HMAC secret of {@code HS*} (its UTF-8 bytes); from the environment only. */
    @JsonProperty
    private String secret;

    /** The JWKS file with the public keys of {@code RS*}, {@code PS*}, {@code ES*}. */
    @JsonProperty
    private String jwksFile;

    /** When set, a token's {@code iss} must equal it. */
    @JsonProperty
    private String issuer;

    /** When set, a token's {@code aud} must contain it. */
    @JsonProperty
    private String audience;

    /** Clock difference tolerated on {@code exp} and {@code nbf}; a poll or stream lasts at most until {@code exp} plus it. */
    @NotNull
    @MinDuration(value = 0, unit = TimeUnit.SECONDS)
    @MaxDuration(value = 5, unit = TimeUnit.MINUTES)
    @JsonProperty
    private Duration clockSkew = Duration.seconds(30);

    /** Longer tokens are refused {@code 401} without being parsed. */
    @Min(256)
    @Max(65_536)
    @JsonProperty
    private int maxTokenLength = 4096;

    /** Whether a poll or stream may carry its token as {@code ?access_token=} (it then shows in logs, history, Referer). */
    @JsonProperty
    private boolean queryToken;

    /** Checked by Bean Validation at startup. */
    @JsonIgnore
    @ValidationMethod(message = "events.auth.jwt.algorithm must be one of HS256, HS384, HS512, RS256, RS384, RS512, "
            + "PS256, PS384, PS512, ES256, ES384, ES512")
    public boolean isAlgorithmSupported() {
        return algorithm != null && ALGORITHMS.contains(algorithm);
    }

    /** Checked by Bean Validation at startup. */
    @JsonIgnore
    @ValidationMethod(message = "events.auth.jwt: an HS* algorithm takes events.auth.jwt.secret (EVENTS_AUTH_SECRET), at "
            + "least as many bytes as its hash (32 for HS256, 48 for HS384, 64 for HS512), and no jwksFile; RS*, PS* and ES* "
            + "take events.auth.jwt.jwksFile (EVENTS_AUTH_JWKS_FILE) and no secret")
    public boolean isKeyOfTheAlgorithm() {
        if (!isAlgorithmSupported()) {
            return true; // said by the check above
        }
        if (JWSAlgorithm.Family.HMAC_SHA.contains(algorithm())) {
            int hashBytes = Integer.parseInt(algorithm.substring(2)) / 8;
            return !blank(secret) && secret.getBytes(StandardCharsets.UTF_8).length >= hashBytes && blank(jwksFile);
        }
        return !blank(jwksFile) && blank(secret);
    }

    JWSAlgorithm algorithm() {
        return JWSAlgorithm.parse(algorithm);
    }

    String getSecret() {
        return secret;
    }

    String getJwksFile() {
        return jwksFile;
    }

    /** The issuer to require, or null. */
    String issuer() {
        return blank(issuer) ? null : issuer;
    }

    /** The audience to require, or null. */
    String audience() {
        return blank(audience) ? null : audience;
    }

    java.time.Duration clockSkew() {
        return java.time.Duration.ofMillis(clockSkew.toMilliseconds());
    }

    int maxTokenLength() {
        return maxTokenLength;
    }

    boolean queryToken() {
        return queryToken;
    }

    private static boolean blank(String text) {
        return text == null || text.isBlank();
    }
}
