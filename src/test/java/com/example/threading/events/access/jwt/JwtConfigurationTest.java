package com.example.threading.events.access.jwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code events.auth.type: jwt} with settings that cannot work refuses to start with a message naming the key; with
 * an RS256 or ES256 (P-256) JWKS file of public keys it starts, accepts the tokens of the private key over HTTP, and
 * refuses those of another key or another algorithm.
 */
class JwtConfigurationTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "no secret              | HS256 | ''                                 | ''  | events.auth.jwt.secret (EVENTS_AUTH_SECRET)",
        "a secret too short     | HS256 | short-secret                       | ''  | at least as many bytes as its hash",
        "HS512 needs 64 bytes   | HS512 | test-secret-of-at-least-32-bytes-x | ''  | 64 for HS512",
        "RS256 without a JWKS   | RS256 | ''                                 | ''  | events.auth.jwt.jwksFile (EVENTS_AUTH_JWKS_FILE)",
        "RS256 with a secret    | RS256 | test-secret-of-at-least-32-bytes-x | x   | and no secret",
        "alg none               | none  | test-secret-of-at-least-32-bytes-x | ''  | events.auth.jwt.algorithm must be one of",
        "a missing JWKS file    | RS256 | ''                                 | /no/such/jwks.json | events.auth.jwt.jwksFile: cannot read",
    })
    void settingsThatCannotWorkRefuseToStart(String name, String algorithm, String secret, String jwksFile, String message) {
        assertThatThrownBy(() -> start(algorithm, secret, jwksFile).before()).hasMessageContaining(message);
    }

    @Test
    void aJwksWithAPrivateKeyOrNoKeyOfTheAlgorithmRefusesToStart(@TempDir Path folder) throws Exception {
        RSAKey rsa = new RSAKeyGenerator(2048).keyID("k1").generate();
        ECKey ec = new ECKeyGenerator(Curve.P_256).generate();
        Path privateKeys = Files.writeString(folder.resolve("private.json"), new JWKSet(rsa).toString(false));
        Path ecOnly = Files.writeString(folder.resolve("ec.json"), new JWKSet(ec.toPublicJWK()).toString());

        assertThatThrownBy(() -> start("RS256", "", privateKeys.toString()).before())
                .hasMessageContaining("holds a private key (kid k1): give the public keys only");
        assertThatThrownBy(() -> start("RS256", "", ecOnly.toString()).before()).hasMessageContaining("holds no RSA key for RS256");
    }

    @Test
    void anRs256JwksOfPublicKeysAcceptsTheTokensOfItsPrivateKey(@TempDir Path folder) throws Exception {
        RSAKey rsa = new RSAKeyGenerator(2048).keyID("k1").generate();
        Path jwks = Files.writeString(folder.resolve("jwks.json"), new JWKSet(List.of(rsa.toPublicJWK(),
                new ECKeyGenerator(Curve.P_256).generate().toPublicJWK())).toString());
        String good = Tokens.sign(new RSASSASigner(rsa), JWSAlgorithm.RS256, claims());
        String otherKey = Tokens.sign(new ECDSASigner(new ECKeyGenerator(Curve.P_256).generate()), JWSAlgorithm.ES256, claims());

        assertThat(polls("RS256", jwks, good, otherKey)).containsExactly(204, 401);
    }

    @Test
    void anEs256JwksOfPublicKeysAcceptsTheTokensOfItsPrivateKeyAndNoOthers(@TempDir Path folder) throws Exception {
        ECKey ec = new ECKeyGenerator(Curve.P_256).keyID("e1").generate();
        RSAKey rsa = new RSAKeyGenerator(2048).keyID("r1").generate();
        Path jwks = Files.writeString(folder.resolve("jwks.json"), new JWKSet(List.of(ec.toPublicJWK(), rsa.toPublicJWK())).toString());
        String good = Tokens.sign(new ECDSASigner(ec), JWSAlgorithm.ES256, claims());
        String otherKey = Tokens.sign(new ECDSASigner(new ECKeyGenerator(Curve.P_256).generate()), JWSAlgorithm.ES256, claims());
        String otherAlgorithm = Tokens.sign(new RSASSASigner(rsa), JWSAlgorithm.RS256, claims()); // its key is in the JWKS

        assertThat(polls("ES256", jwks, good, otherKey, otherAlgorithm)).containsExactly(204, 401, 401);
    }

    /** Starts the service verifying {@code algorithm} with the keys of {@code jwks}; the status of a poll with each token. */
    private static List<Integer> polls(String algorithm, Path jwks, String... tokens) throws Exception {
        DropwizardTestSupport<ThreadingConfiguration> app = start(algorithm, "", jwks.toString());
        app.before();
        try (LoopbackHttp http = new LoopbackHttp()) {
            List<Integer> statuses = new ArrayList<>();
            for (String token : tokens) {
                Answer answer = http.send(LoopbackHttp.request(LoopbackHttp.url(app.getLocalPort(), "/events?topic=room-1&timeout=1"))
                        .header("Authorization", "Bearer " + token).GET().build());
                statuses.add(answer.status());
            }
            return statuses;
        } finally {
            app.after();
        }
    }

    private static JWTClaimsSet claims() {
        return Tokens.claims("bob", Duration.ofMinutes(5), List.of("room-1"), List.of()).build();
    }

    private static DropwizardTestSupport<ThreadingConfiguration> start(String algorithm, String secret, String jwksFile) {
        List<ConfigOverride> overrides = new ArrayList<>();
        overrides.add(ConfigOverride.randomPorts());
        overrides.add(ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"));
        overrides.add(ConfigOverride.config("events.tickPeriod", "0"));
        overrides.add(ConfigOverride.config("events.auth.type", "jwt"));
        overrides.add(ConfigOverride.config("events.auth.jwt.algorithm", algorithm));
        overrides.add(ConfigOverride.config("events.auth.jwt.secret", secret));
        overrides.add(ConfigOverride.config("events.auth.jwt.jwksFile", jwksFile));
        return new DropwizardTestSupport<>(ThreadingApplication.class, "config.yml", overrides.toArray(ConfigOverride[]::new));
    }
}
