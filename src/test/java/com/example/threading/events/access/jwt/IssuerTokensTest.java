package com.example.threading.events.access.jwt;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tokens shaped as identity providers mint them, signed by a third-party library (nimbus) with a key of a published
 * JWKS (a key id in the header, as every provider sets one): the headers and claims of Keycloak, Auth0, Okta,
 * Microsoft Entra ID and RFC 9068 access tokens are accepted whenever their signature, expiry, issuer and audience
 * are right; what must stay refused (another type, an unknown key id among named keys, an unknown critical header)
 * is. One configured HMAC secret verifies a token whatever key id its header names.
 */
class IssuerTokensTest {

    private static final String KEY_ID = "idp-2026-11";
    private static final String AUDIENCE = "events-api";
    private static RSAKey key;

    @BeforeAll
    static void keys() throws Exception {
        key = new RSAKeyGenerator(2048).keyID(KEY_ID).generate();
    }

    /** Each provider: its header type (null: none), its issuer, and the claims it adds beside {@code sub} and {@code exp}. */
    static Stream<Arguments> issuers() {
        return Stream.of(
                Arguments.of("Keycloak", JOSEObjectType.JWT, "https://sso.example.com/realms/demo",
                        (UnaryOperator<JWTClaimsSet.Builder>) claims -> claims.audience(List.of("account", AUDIENCE))
                                .claim("azp", "events-ui").claim("typ", "Bearer").claim("scope", "openid profile")
                                .claim("realm_access", Map.of("roles", List.of("reader"))).claim("sid", "3f2a")
                                .claim("preferred_username", "alice").jwtID("a1b2").issueTime(new Date())),
                Arguments.of("Auth0", JOSEObjectType.JWT, "https://tenant.eu.auth0.com/",
                        (UnaryOperator<JWTClaimsSet.Builder>) claims -> claims
                                .audience(List.of(AUDIENCE, "https://tenant.eu.auth0.com/userinfo"))
                                .claim("azp", "Xa9q").claim("scope", "openid read:events")
                                .claim("permissions", List.of("read:events")).issueTime(new Date())),
                Arguments.of("Okta", null, "https://dev-123.okta.com/oauth2/default",
                        (UnaryOperator<JWTClaimsSet.Builder>) claims -> claims.audience(AUDIENCE).claim("ver", 1)
                                .jwtID("AT.x1").claim("cid", "0oa1").claim("uid", "00u1")
                                .claim("scp", List.of("openid", "events")).claim("auth_time", Instant.now().getEpochSecond())
                                .issueTime(new Date())),
                Arguments.of("Microsoft Entra ID", JOSEObjectType.JWT,
                        "https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0",
                        (UnaryOperator<JWTClaimsSet.Builder>) claims -> claims.audience(AUDIENCE).claim("ver", "2.0")
                                .claim("azp", "6e74172b").claim("oid", "ab12").claim("tid", "72f988bf")
                                .claim("scp", "events.read").notBeforeTime(new Date(System.currentTimeMillis() - 60_000))
                                .issueTime(new Date())),
                Arguments.of("RFC 9068", new JOSEObjectType("at+jwt"), "https://as.example.com",
                        (UnaryOperator<JWTClaimsSet.Builder>) claims -> claims.audience(AUDIENCE).claim("client_id", "s6Bh")
                                .jwtID("dbe39bf3").claim("scope", "events").issueTime(new Date())),
                Arguments.of("RFC 9068, long form", new JOSEObjectType("application/at+jwt"), "https://as.example.com",
                        (UnaryOperator<JWTClaimsSet.Builder>) claims -> claims.audience(AUDIENCE).claim("client_id", "s6Bh")
                                .jwtID("dbe39bf4").issueTime(new Date())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("issuers")
    void aProvidersTokenIsAccepted(String provider, JOSEObjectType type, String issuer, UnaryOperator<JWTClaimsSet.Builder> extra)
            throws Exception {
        JWSHeader.Builder header = new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(KEY_ID).type(type);
        if (provider.startsWith("Microsoft")) {
            header.x509CertThumbprint(Base64URL.encode("legacy-sha1-thumbprint")); // x5t, which Entra ID still sends
        }
        String token = sign(header.build(), extra.apply(base(issuer)).build());

        Optional<TopicPrincipal> caller = jwks(issuer).authenticate(token);

        assertThat(caller).as(provider).isPresent();
        assertThat(caller.get().getName()).isEqualTo("alice");
        assertThat(caller.get().subscribe().matches("room-1")).isTrue();
    }

    @Test
    void oneConfiguredSecretVerifiesATokenWhateverKeyIdItNames() throws Exception {
        String secret = Tokens.SECRET;
        JwtAuthenticator authenticator = new JwtAuthenticator(JWSAlgorithm.HS256,
                new ImmutableSecret<>(secret.getBytes(StandardCharsets.UTF_8)), null, null, Duration.ZERO);
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("shared-secret-v1")
                .type(JOSEObjectType.JWT).build(), base(null).build());
        jwt.sign(new MACSigner(secret.getBytes(StandardCharsets.UTF_8)));

        assertThat(authenticator.authenticate(jwt.serialize())).isPresent();
    }

    @Test
    void whatMustStayRefusedIs() throws Exception {
        String issuer = "https://as.example.com";
        JwtAuthenticator authenticator = jwks(issuer);
        JWTClaimsSet claims = base(issuer).audience(AUDIENCE).build();

        assertThat(authenticator.authenticate(sign(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(KEY_ID)
                .type(new JOSEObjectType("dpop+jwt")).build(), claims))).as("a DPoP proof is no access token").isEmpty();
        assertThat(authenticator.authenticate(sign(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("someone-elses")
                .build(), claims))).as("a key id none of the named keys has").isEmpty();
        assertThat(authenticator.authenticate(sign(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(KEY_ID)
                .criticalParams(Set.of("exp-policy")).customParam("exp-policy", "strict").build(), claims)))
                .as("a critical header this service does not understand").isEmpty();
        assertThat(authenticator.authenticate(sign(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(KEY_ID).build(),
                base("https://other.example.com").audience(AUDIENCE).build()))).as("another issuer").isEmpty();
        assertThat(authenticator.authenticate(sign(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(KEY_ID).build(),
                base(issuer).audience("another-api").build()))).as("another audience").isEmpty();
    }

    /** Verifies RS256 with the public half of the provider's key, as published in its JWKS, for {@code issuer}. */
    private static JwtAuthenticator jwks(String issuer) {
        return new JwtAuthenticator(JWSAlgorithm.RS256, new ImmutableJWKSet<>(new JWKSet(key.toPublicJWK())), issuer,
                AUDIENCE, Duration.ofSeconds(30));
    }

    private static JWTClaimsSet.Builder base(String issuer) {
        return Tokens.claims("alice", Duration.ofMinutes(5), List.of("room-1"), List.of()).issuer(issuer);
    }

    private static String sign(JWSHeader header, JWTClaimsSet claims) throws Exception {
        SignedJWT jwt = new SignedJWT(header, claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }
}
