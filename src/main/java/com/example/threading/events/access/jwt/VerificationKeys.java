package com.example.threading.events.access.jwt;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyType;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;

/**
 * The keys tokens are verified with, from {@code events.auth.jwt}: the HMAC secret for {@code HS*}, or the public keys
 * of a JWKS file for {@code RS*}, {@code PS*} and {@code ES*}. A JWKS file that cannot be read, holds a private key or
 * no key of the algorithm's type refuses to start, naming the key of the configuration.
 */
final class VerificationKeys {

    private VerificationKeys() {
    }

    /** The key source for {@code settings} (already validated: the algorithm's kind of key is given). */
    static JWKSource<SecurityContext> of(JwtSettings settings) {
        JWSAlgorithm algorithm = settings.algorithm();
        if (JWSAlgorithm.Family.HMAC_SHA.contains(algorithm)) {
            return new ImmutableSecret<>(settings.getSecret().getBytes(StandardCharsets.UTF_8));
        }
        File file = new File(settings.getJwksFile());
        JWKSet keys;
        try {
            keys = JWKSet.load(file);
        } catch (IOException | ParseException e) {
            throw new IllegalStateException("events.auth.jwt.jwksFile: cannot read a JWKS from " + file + ": " + e.getMessage(), e);
        }
        KeyType type = JWSAlgorithm.Family.EC.contains(algorithm) ? KeyType.EC : KeyType.RSA;
        for (JWK key : keys.getKeys()) {
            if (key.isPrivate()) {
                throw new IllegalStateException("events.auth.jwt.jwksFile " + file + " holds a private key"
                        + (key.getKeyID() == null ? "" : " (kid " + key.getKeyID() + ")") + ": give the public keys only");
            }
        }
        if (keys.getKeys().stream().noneMatch(key -> type.equals(key.getKeyType()))) {
            throw new IllegalStateException("events.auth.jwt.jwksFile " + file + " holds no " + type + " key for "
                    + algorithm + " (events.auth.jwt.algorithm)");
        }
        return new ImmutableJWKSet<>(keys);
    }
}
