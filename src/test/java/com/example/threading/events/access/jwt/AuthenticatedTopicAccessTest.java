package com.example.threading.events.access.jwt;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.events.access.AccessDecision;
import com.example.threading.events.access.TopicAccess.Action;
import io.dropwizard.auth.AuthenticationException;
import io.dropwizard.auth.PrincipalImpl;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Dropwizard's auth interfaces behind the seam, with a plugged-in authenticator that knows one token ({@code good})
 * and records what reaches it: where the token may come from, what never reaches the authenticator, and how its answers
 * become 401, 503 and grants asked topic by topic of the authorizer.
 */
class AuthenticatedTopicAccessTest {

    private static final Instant END = Instant.parse("2030-01-01T00:00:00Z");

    private final List<String> authenticated = new ArrayList<>();
    private final List<String> rolesAsked = new ArrayList<>();

    private AuthenticatedTopicAccess<PrincipalImpl> access(boolean queryToken) {
        return new AuthenticatedTopicAccess<>(token -> {
            authenticated.add(token);
            if (token.equals("down")) {
                throw new AuthenticationException("the user store is down");
            }
            return token.equals("good") ? Optional.of(new PrincipalImpl("alice")) : Optional.empty();
        }, (principal, role, context) -> {
            rolesAsked.add(role);
            return role.equals("subscribe:room-1");
        }, principal -> Optional.of(END), 64, queryToken);
    }

    @Test
    void aBearerHeaderIsTheToken() {
        AccessDecision decision = access(false).decide(List.of("Bearer good"), null, Action.SUBSCRIBE);

        assertThat(decision.admitted()).isTrue();
        assertThat(decision.grant().allows(Action.SUBSCRIBE, "room-1")).isTrue();
        assertThat(decision.grant().allows(Action.SUBSCRIBE, "room-10")).isFalse();
        assertThat(decision.grant().allows(Action.PUBLISH, "room-1")).isFalse();
        assertThat(rolesAsked).containsExactly("subscribe:room-1", "subscribe:room-10", "publish:room-1");
        assertThat(decision.grant().expiresAt()).contains(END);
        assertThat(access(false).decide(List.of("bEaReR   good  "), null, Action.PUBLISH).admitted()).as("scheme in any case").isTrue();
    }

    @Test
    void noTokenIs401WithAChallengeAndNoError() {
        for (List<String> headers : List.of(List.<String>of(), List.of("Basic Zm9vOmJhcg=="), List.of("Bearer"), List.of("Bearer "), List.of(""))) {
            AccessDecision decision = access(false).decide(headers, "topic=room-1", Action.SUBSCRIBE);
            assertThat(decision.status()).as(headers.toString()).isEqualTo(401);
            assertThat(decision.challenge()).contains("Bearer realm=\"events\"");
        }
        assertThat(authenticated).isEmpty();
    }

    @Test
    void aBadTokenIs401InvalidToken() {
        AccessDecision decision = access(false).decide(List.of("Bearer forged-token"), null, Action.SUBSCRIBE);

        assertThat(decision.status()).isEqualTo(401);
        assertThat(decision.challenge()).contains("Bearer realm=\"events\", error=\"invalid_token\"");
        assertThat(decision.message()).doesNotContain("forged");
    }

    @Test
    void aHugeTokenIs401WithoutReachingTheAuthenticator() {
        AccessDecision decision = access(true).decide(List.of("Bearer " + "g".repeat(65)), null, Action.SUBSCRIBE);
        AccessDecision inQuery = access(true).decide(List.of(), "access_token=" + "g".repeat(100_000), Action.SUBSCRIBE);

        assertThat(decision.status()).isEqualTo(401);
        assertThat(decision.challenge()).contains(BearerTokens.INVALID_TOKEN);
        assertThat(inQuery.status()).isEqualTo(401);
        assertThat(authenticated).isEmpty();
    }

    @Test
    void theQueryTokenServesSubscriptionsWhenTurnedOn() {
        assertThat(access(true).decide(List.of(), "topic=room-1&access_token=good&timeout=5", Action.SUBSCRIBE).admitted()).isTrue();
        assertThat(access(true).decide(List.of(), "access_token=go%6Fd", Action.SUBSCRIBE).admitted()).as("decoded").isTrue();

        AccessDecision off = access(false).decide(List.of(), "access_token=good", Action.SUBSCRIBE);
        assertThat(off.status()).isEqualTo(400);
        assertThat(off.message()).contains("turned off");
        AccessDecision publish = access(true).decide(List.of(), "access_token=good", Action.PUBLISH);
        assertThat(publish.status()).as("never on a publish").isEqualTo(400);
        assertThat(authenticated).containsExactly("good", "good");
    }

    @Test
    void aTokenInBothPlacesOrTwiceIs400() {
        List<AccessDecision> twice = List.of(
                access(true).decide(List.of("Bearer good"), "access_token=good", Action.SUBSCRIBE),
                access(true).decide(List.of("Bearer good"), "access_token=bad", Action.SUBSCRIBE),
                access(true).decide(List.of(), "access_token=good&access_token=good", Action.SUBSCRIBE),
                access(true).decide(List.of("Bearer good", "Bearer good"), null, Action.SUBSCRIBE),
                access(true).decide(List.of(), "access_token=%G0", Action.SUBSCRIBE));
        for (AccessDecision decision : twice) {
            assertThat(decision.status()).as(decision.toString()).isEqualTo(400);
            assertThat(decision.challenge()).contains(BearerTokens.INVALID_REQUEST);
        }
        assertThat(authenticated).as("none was checked").isEmpty();
    }

    @Test
    void anAuthenticatorThatCannotCheckIs503() {
        AccessDecision decision = access(false).decide(List.of("Bearer down"), null, Action.PUBLISH);

        assertThat(decision.status()).isEqualTo(503);
        assertThat(decision.message()).doesNotContain("store");
    }

    @Test
    void aPrincipalPastItsEndIs401EvenWhenTheAuthenticatorStillReturnsIt() {
        AuthenticatedTopicAccess<PrincipalImpl> cached = new AuthenticatedTopicAccess<>(token -> Optional.of(new PrincipalImpl("alice")),
                (principal, role, context) -> true, principal -> Optional.of(Instant.now().minusSeconds(1)), 64, false);

        AccessDecision decision = cached.decide(List.of("Bearer good"), null, Action.SUBSCRIBE);

        assertThat(decision.status()).isEqualTo(401);
        assertThat(decision.challenge()).contains(BearerTokens.INVALID_TOKEN);
    }

    @Test
    void rolesNameTheActionAndTheTopic() {
        assertThat(AuthenticatedTopicAccess.role(Action.SUBSCRIBE, "room-1")).isEqualTo("subscribe:room-1");
        assertThat(AuthenticatedTopicAccess.role(Action.PUBLISH, "a.b")).isEqualTo("publish:a.b");
    }
}
