package com.example.threading.events.access.jwt;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSSigner;
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
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;

/**
 * A bounded one-off measurement, not a test: the CPU time of one {@link JwtAuthenticator#authenticate} (what every
 * poll and publish costs under {@code events.auth.type: jwt}) per algorithm, on one thread, after a warm-up of as many
 * calls as are measured. Prints the JDK, the CPUs and the load average beside the figures.
 * <pre>{@code
 * mvn -B -q package -DskipTests && mvn -B -q test-compile
 * java -cp target/test-classes:target/threading-reference.jar com.example.threading.events.access.jwt.TokenCostFigures
 * }</pre>
 */
public final class TokenCostFigures {

    private static final int CALLS = 20_000;

    private TokenCostFigures() {
    }

    /** Measures HS256, RS256 (2048-bit) and ES256 (P-256), twice each. */
    public static void main(String[] args) throws Exception {
        OctetSequenceKey hmac = new OctetSequenceKeyGenerator(256).generate();
        RSAKey rsa = new RSAKeyGenerator(2048).generate();
        ECKey ec = new ECKeyGenerator(Curve.P_256).generate();
        System.out.printf("java %s, %d CPUs, load average %s%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), loadAverage());
        for (int round = 1; round <= 2; round++) {
            System.out.printf("round %d: HS256 %.1f us, RS256 %.1f us, ES256 %.1f us per token%n", round,
                    micros(JWSAlgorithm.HS256, new ImmutableSecret<>(hmac.toByteArray()), new MACSigner(hmac)),
                    micros(JWSAlgorithm.RS256, new ImmutableJWKSet<>(new JWKSet(rsa.toPublicJWK())), new RSASSASigner(rsa)),
                    micros(JWSAlgorithm.ES256, new ImmutableJWKSet<>(new JWKSet(ec.toPublicJWK())), new ECDSASigner(ec)));
        }
        System.out.printf("load average at the end %s%n", loadAverage());
    }

    /** The system's load average over the last minute, as the JDK reads it. */
    private static String loadAverage() {
        return String.format("%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static double micros(JWSAlgorithm algorithm, JWKSource<SecurityContext> keys, JWSSigner signer) {
        JwtAuthenticator authenticator = new JwtAuthenticator(algorithm, keys, null, null, Duration.ofSeconds(30));
        String token = Tokens.sign(signer, algorithm,
                Tokens.claims("figures", Duration.ofHours(1), List.of("room-1", "lobby-*"), List.of("room-1")).build());
        for (int i = 0; i < CALLS; i++) {
            authenticator.authenticate(token).orElseThrow();
        }
        long start = System.nanoTime();
        for (int i = 0; i < CALLS; i++) {
            authenticator.authenticate(token).orElseThrow();
        }
        return (System.nanoTime() - start) / 1_000.0 / CALLS;
    }
}
