package com.example.threading.events.access.jwt;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.KeyConverter;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.JWSKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import java.security.Key;
import java.util.List;

/**
 * Which configured keys may verify a token, as identity providers mint them: only tokens of the one configured
 * algorithm; among the configured keys of that algorithm, those whose id is the token's {@code kid} when the token
 * names one and some key has that id (a JWKS of several keys, as Keycloak, Auth0, Okta and Entra ID publish them), else
 * the keys configured without an id (one HMAC secret, or a JWKS key without {@code kid}), which verify a token
 * whatever key id it names. Nimbus' own selector requires the {@code kid} to match, so a token with a key id signed
 * with the one configured secret was refused. Only the key id is matched: certificate thumbprints in the header
 * ({@code x5t}, {@code x5t#S256}) are not required of the configured keys.
 */
final class KeysForToken implements JWSKeySelector<SecurityContext> {

    private final JWSAlgorithm algorithm;
    private final JWKSource<SecurityContext> keys;

    /** Selects among {@code keys} for tokens signed with {@code algorithm}. */
    KeysForToken(JWSAlgorithm algorithm, JWKSource<SecurityContext> keys) {
        this.algorithm = algorithm;
        this.keys = keys;
    }

    @Override
    public List<? extends Key> selectJWSKeys(JWSHeader header, SecurityContext context) throws KeySourceException {
        if (!algorithm.equals(header.getAlgorithm())) {
            return List.of(); // never another algorithm: not "none", not HMAC with a public key as its secret
        }
        // Every configured key usable with the algorithm, whatever key id or thumbprint the token names.
        List<JWK> usable = keys.get(new JWKSelector(JWKMatcher.forJWSHeader(new JWSHeader(algorithm))), context);
        String keyId = header.getKeyID();
        List<JWK> named = keyId == null ? List.of() : usable.stream().filter(key -> keyId.equals(key.getKeyID())).toList();
        List<JWK> chosen = !named.isEmpty() ? named
                : keyId == null ? usable
                : usable.stream().filter(key -> key.getKeyID() == null).toList();
        return KeyConverter.toJavaKeys(chosen);
    }
}
