package com.example.threading.fuzz;

import com.example.threading.events.access.jwt.Tokens;
import com.nimbusds.jwt.PlainJWT;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The bearer tokens the fuzz sends, minted once per run for {@link #SECRET} (the secret of {@link AuthFuzzTest}'s
 * service): valid ones with every topic or one room, and hostile ones (expired, unsigned, signed with another
 * secret, cut, too long). Their expiry moves with the clock; what the service must answer does not.
 *
 * <p>Thread-safety: constants.
 */
final class FuzzTokens {

    /** The HMAC secret of the JWT-configured fuzzed service. */
    static final String SECRET = Tokens.SECRET;
    /** Subscribes to and publishes on every topic, for an hour. */
    static final String EVERY_TOPIC = Tokens.hs256(SECRET, Tokens.claims("fuzz", Duration.ofHours(1), List.of("*"), List.of("*")).build());
    /** Subscribes to room-1 and publishes nowhere: 403 for everything else. */
    static final String ROOM_1 = Tokens.hs256(SECRET, Tokens.claims("fuzz", Duration.ofHours(1), List.of("room-1"), List.of()).build());
    /** Expired a minute ago. */
    static final String EXPIRED = Tokens.hs256(SECRET, Tokens.claims("fuzz", Duration.ofMinutes(-1), List.of("*"), List.of("*")).build());
    /** {@code "alg": "none"}. */
    static final String UNSIGNED = new PlainJWT(Tokens.claims("fuzz", Duration.ofHours(1), List.of("*"), List.of("*")).build()).serialize();
    /** Signed with another secret. */
    static final String FORGED = Tokens.hs256("not-the-secret-but-long-enough-for-hs256",
            Tokens.claims("fuzz", Duration.ofHours(1), List.of("*"), List.of("*")).build());

    /** The tokens the service accepts; every other text in {@link #TOKENS} is hostile. */
    static final Set<String> VALID = Set.of(EVERY_TOPIC, ROOM_1);
    /** What cannot be part of a compact JWS (base64url and dots): where a token in a header line or a query ends. */
    private static final Pattern NOT_IN_A_TOKEN = Pattern.compile("[^A-Za-z0-9_.-]+");

    /** Valid and hostile token texts, for the {@code Authorization} header and {@code access_token}. */
    static final List<String> TOKENS = List.of(EVERY_TOPIC, EVERY_TOPIC, EVERY_TOPIC, ROOM_1, EXPIRED, UNSIGNED, FORGED,
            EVERY_TOPIC.substring(0, EVERY_TOPIC.length() - 3), EVERY_TOPIC.replace('.', '~'), EVERY_TOPIC + "." + EVERY_TOPIC,
            "x".repeat(5_000), "", "a.b.c", "..", "eyJhbGciOiJub25lIn0.e30.", "\u00e9.\u00e9.\u00e9");

    private FuzzTokens() {
    }

    /**
     * Whether {@code request} carries one of the {@link #VALID} tokens whole, in a header line or its request target
     * (a token percent-encodes to itself); false when its only credentials are hostile, or when it has none.
     */
    static boolean carriesAValidToken(FuzzRequest request) {
        return Stream.concat(request.headers().stream(), Stream.of(request.target()))
                .flatMap(NOT_IN_A_TOKEN::splitAsStream).anyMatch(VALID::contains);
    }
}
