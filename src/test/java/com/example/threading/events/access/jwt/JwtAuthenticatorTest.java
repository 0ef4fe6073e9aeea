package com.example.threading.events.access.jwt;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetSequenceKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.OctetSequenceKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hostile tokens against the JWT authenticator, with keys made here (their random bits change no outcome): only a
 * token signed with the configured algorithm and key, unexpired, already valid, of the configured issuer and audience,
 * whose {@code events} claim has the right shape, is a principal; and the principal's grants are what its claim lists.
 */
class JwtAuthenticatorTest {

    private static final Duration SKEW = Duration.ofSeconds(30);
    private static final List<String> ROOMS = List.of("room-1", "lobby-*");

    private static OctetSequenceKey hmac;
    private static RSAKey rsa;
    private static ECKey ec;

    @BeforeAll
    static void keys() throws Exception {
        hmac = new OctetSequenceKeyGenerator(256).generate();
        rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
        ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
    }

    private static JwtAuthenticator hs256() {
        return new JwtAuthenticator(JWSAlgorithm.HS256, new ImmutableSecret<>(hmac.toByteArray()), null, null, SKEW);
    }

    private static JwtAuthenticator rs256() {
        return new JwtAuthenticator(JWSAlgorithm.RS256, new ImmutableJWKSet<>(new JWKSet(rsa.toPublicJWK())), null, null, SKEW);
    }

    private static JWTClaimsSet valid() {
        return Tokens.claims("alice", Duration.ofMinutes(5), ROOMS, List.of("room-1")).build();
    }

    private static String signedHs256(JWTClaimsSet claims) throws Exception {
        return Tokens.sign(new MACSigner(hmac), JWSAlgorithm.HS256, claims);
    }

    @Test
    void aValidTokenIsAPrincipalWithItsClaimsTopics() throws Exception {
        Optional<TopicPrincipal> alice = hs256().authenticate(signedHs256(valid()));

        assertThat(alice).isPresent();
        assertThat(alice.get().getName()).isEqualTo("alice");
        assertThat(alice.get().subscribe().matches("room-1")).isTrue();
        assertThat(alice.get().subscribe().matches("lobby-7")).isTrue();
        assertThat(alice.get().subscribe().matches("room-10")).as("room-1 is not a prefix").isFalse();
        assertThat(alice.get().subscribe().matches("room-2")).isFalse();
        assertThat(alice.get().publish().matches("room-1")).isTrue();
        assertThat(alice.get().publish().matches("lobby-7")).isFalse();
        ClaimsAuthorizer authorizer = new ClaimsAuthorizer();
        assertThat(authorizer.authorize(alice.get(), "subscribe:lobby-7", null)).isTrue();
        assertThat(authorizer.authorize(alice.get(), "publish:lobby-7", null)).isFalse();
        assertThat(authorizer.authorize(alice.get(), "admin:room-1", null)).isFalse();
    }

    @Test
    void theTokenIsAcceptedUntilItsExpiryPlusTheSkew() throws Exception {
        Instant exp = Instant.now().plusSeconds(120).with(java.time.temporal.ChronoField.NANO_OF_SECOND, 0);
        JWTClaimsSet claims = new JWTClaimsSet.Builder(valid()).expirationTime(Date.from(exp)).build();

        assertThat(hs256().authenticate(signedHs256(claims)).orElseThrow().acceptedUntil()).isEqualTo(exp.plus(SKEW));
    }

    @Test
    void algNoneIsRefused() throws Exception {
        String unsecured = new PlainJWT(valid()).serialize();
        String valid = signedHs256(valid());
        String[] parts = valid.split("\\.");
        // The classic forgeries: the header says none (in any case), with and without the old signature.
        for (String alg : List.of("none", "None", "NONE", "nOnE")) {
            String header = Base64URL.encode("{\"alg\":\"" + alg + "\",\"typ\":\"JWT\"}").toString();
            assertThat(hs256().authenticate(header + "." + parts[1] + ".")).as(alg).isEmpty();
            assertThat(hs256().authenticate(header + "." + parts[1] + "." + parts[2])).as(alg + " with a signature").isEmpty();
        }
        assertThat(hs256().authenticate(unsecured)).isEmpty();
        assertThat(rs256().authenticate(unsecured)).isEmpty();
    }

    @Test
    void aWrongSignatureIsRefused() throws Exception {
        OctetSequenceKey other = new OctetSequenceKeyGenerator(256).generate();
        assertThat(hs256().authenticate(Tokens.sign(new MACSigner(other), JWSAlgorithm.HS256, valid()))).isEmpty();

        // A valid signature over other claims: the payload swapped for one that grants more.
        String[] mine = signedHs256(valid()).split("\\.");
        String more = Base64URL.encode(Tokens.claims("alice", Duration.ofMinutes(5), List.of("*"), List.of("*")).build()
                .toString()).toString();
        assertThat(hs256().authenticate(mine[0] + "." + more + "." + mine[2])).isEmpty();
        assertThat(hs256().authenticate(mine[0] + "." + mine[1] + ".")).as("no signature").isEmpty();
        assertThat(hs256().authenticate(mine[0] + "." + mine[1] + "." + mine[2].substring(1))).as("a cut signature").isEmpty();
    }

    @Test
    void aKeyOfTheWrongTypeIsRefused() throws Exception {
        // The public RSA key, whose bytes anyone has, used as an HMAC secret: refused, HS256 is not the algorithm.
        byte[] publicBytes = rsa.toPublicJWK().toRSAPublicKey().getEncoded();
        String confused = Tokens.sign(new MACSigner(publicBytes), JWSAlgorithm.HS256, valid());
        assertThat(rs256().authenticate(confused)).isEmpty();
        // Also with the JWK's JSON as the secret.
        String confusedJson = Tokens.sign(new MACSigner(rsa.toPublicJWK().toJSONString().getBytes(StandardCharsets.UTF_8)),
                JWSAlgorithm.HS256, valid());
        assertThat(rs256().authenticate(confusedJson)).isEmpty();
        // An EC signature where RSA is configured, and RSA where HMAC is.
        assertThat(rs256().authenticate(Tokens.sign(new ECDSASigner(ec), JWSAlgorithm.ES256, valid()))).isEmpty();
        assertThat(hs256().authenticate(Tokens.sign(new RSASSASigner(rsa), JWSAlgorithm.RS256, valid()))).isEmpty();
        // The configured algorithm and key work.
        assertThat(rs256().authenticate(Tokens.sign(new RSASSASigner(rsa), JWSAlgorithm.RS256, valid()))).isPresent();
        JwtAuthenticator es256 = new JwtAuthenticator(JWSAlgorithm.ES256, new ImmutableJWKSet<>(new JWKSet(ec.toPublicJWK())),
                null, null, SKEW);
        assertThat(es256.authenticate(Tokens.sign(new ECDSASigner(ec), JWSAlgorithm.ES256, valid()))).isPresent();
        assertThat(es256.authenticate(Tokens.sign(new RSASSASigner(rsa), JWSAlgorithm.RS256, valid()))).isEmpty();
    }

    @Test
    void anExpiredTokenIsRefusedBeyondTheSkew() throws Exception {
        JWTClaimsSet expired = new JWTClaimsSet.Builder(valid()).expirationTime(Date.from(Instant.now().minusSeconds(60))).build();
        JWTClaimsSet withinSkew = new JWTClaimsSet.Builder(valid()).expirationTime(Date.from(Instant.now().minusSeconds(10))).build();

        assertThat(hs256().authenticate(signedHs256(expired))).isEmpty();
        assertThat(hs256().authenticate(signedHs256(withinSkew))).as("10 s past, 30 s skew").isPresent();
    }

    @Test
    void aTokenNotYetValidIsRefusedBeyondTheSkew() throws Exception {
        JWTClaimsSet later = new JWTClaimsSet.Builder(valid()).notBeforeTime(Date.from(Instant.now().plusSeconds(60))).build();
        JWTClaimsSet soon = new JWTClaimsSet.Builder(valid()).notBeforeTime(Date.from(Instant.now().plusSeconds(10))).build();

        assertThat(hs256().authenticate(signedHs256(later))).isEmpty();
        assertThat(hs256().authenticate(signedHs256(soon))).isPresent();
    }

    @Test
    void aTokenWithoutExpiryIsRefused() throws Exception {
        JWTClaimsSet forever = new JWTClaimsSet.Builder(valid()).expirationTime(null).build();

        assertThat(hs256().authenticate(signedHs256(forever))).isEmpty();
    }

    @Test
    void issuerAndAudienceMustMatchWhenConfigured() throws Exception {
        JwtAuthenticator strict = new JwtAuthenticator(JWSAlgorithm.HS256, new ImmutableSecret<>(hmac.toByteArray()),
                "https://issuer.example", "events", SKEW);
        JWTClaimsSet right = new JWTClaimsSet.Builder(valid()).issuer("https://issuer.example").audience(List.of("events", "x")).build();

        assertThat(strict.authenticate(signedHs256(right))).isPresent();
        assertThat(strict.authenticate(signedHs256(valid()))).as("neither").isEmpty();
        assertThat(strict.authenticate(signedHs256(new JWTClaimsSet.Builder(right).issuer("https://evil.example").build()))).isEmpty();
        assertThat(strict.authenticate(signedHs256(new JWTClaimsSet.Builder(right).audience("other").build()))).isEmpty();
    }

    @Test
    void aClaimOfTheWrongShapeMakesTheTokenInvalid() throws Exception {
        for (Object claim : List.of("room-1", List.of("room-1"), Map.of("subscribe", "room-1"),
                Map.of("subscribe", List.of("room 1")), Map.of("subscribe", List.of(1, 2)), Map.of("publish", List.of("*room")))) {
            JWTClaimsSet claims = new JWTClaimsSet.Builder(valid()).claim("events", claim).build();
            assertThat(hs256().authenticate(signedHs256(claims))).as(String.valueOf(claim)).isEmpty();
        }
    }

    @Test
    void aTokenWithoutTheClaimGrantsNothing() throws Exception {
        JWTClaimsSet none = new JWTClaimsSet.Builder(valid()).claim("events", null).build();

        TopicPrincipal principal = hs256().authenticate(signedHs256(none)).orElseThrow();
        assertThat(principal.subscribe().matches("default")).isFalse();
        assertThat(principal.publish().matches("default")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "...", "a.b.c", "eyJ", "eyJhbGciOiJIUzI1NiJ9", "eyJhbGciOiJIUzI1NiJ9..",
            "eyJhbGciOiJIUzI1NiJ9.e30.", "\u0000.\u0000.\u0000", "\u00e9\u00e9.\u00e9.\u00e9", "null", "{}", "%%%.%%%.%%%"})
    void garbageIsRefused(String token) {
        assertThat(hs256().authenticate(token)).isEmpty();
        assertThat(rs256().authenticate(token)).isEmpty();
    }

    @Test
    void hostileHeadersAreRefusedNotThrown() throws Exception {
        String payload = signedHs256(valid()).split("\\.")[1];
        for (String header : List.of("[".repeat(3_000) + "]".repeat(3_000), "{\"alg\":" + "[".repeat(1_500) + "]".repeat(1_500) + "}",
                "{\"alg\":\"HS256\",\"crit\":[\"x\"],\"x\":1}", "{\"alg\":\"HS256\",\"jku\":\"http://127.0.0.1:1/keys\"}",
                "{\"alg\":\"HS256\",\"enc\":\"A128GCM\"}", "{\"alg\":\"HS256\",\"b64\":false,\"crit\":[\"b64\"]}")) {
            String token = Base64URL.encode(header).toString() + "." + payload + ".c2ln";
            assertThat(hs256().authenticate(token)).as(header.substring(0, Math.min(40, header.length()))).isEmpty();
        }
    }
}
