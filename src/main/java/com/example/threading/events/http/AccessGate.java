package com.example.threading.events.http;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.example.threading.events.access.AccessDecision;
import com.example.threading.events.access.TopicAccess;
import com.example.threading.events.access.TopicGrant;
import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where the events endpoints ask their {@link TopicAccess}, before anything reaches the hub: who is calling (from
 * the request's head), then whether the caller may do what it asks on every topic named (all of them, or the whole
 * request is refused). Answers the refusals (JSON, {@code WWW-Authenticate}, {@code Retry-After} for a {@code 503})
 * and counts them: {@code events.auth.bad-requests} (400), {@code events.auth.unauthenticated} (401),
 * {@code events.auth.forbidden} (403), {@code events.auth.unavailable} (503).
 *
 * <p>A poll admitted with a grant that ends (a token's expiry) waits at most until then: it is answered {@code 204}
 * when its credentials end, and the next poll with them is refused, so a poll never outlives its credentials.
 */
public final class AccessGate {

    /** The baggage entry and span attribute of the caller: OpenTelemetry's semantic-convention name. */
    public static final String CALLER = "enduser.id";

    private final TopicAccess access;
    private final PollLimits limits;
    private final JsonResponses json;
    private final long retryAfterSeconds;
    private final Clock clock;
    private final Meter badRequests;
    private final Meter unauthenticated;
    private final Meter forbidden;
    private final Meter unavailable;

    /** Asks {@code access}; parses polls with {@code limits}; a {@code 503} carries {@code Retry-After: retryAfterSeconds}. */
    public AccessGate(TopicAccess access, PollLimits limits, long retryAfterSeconds, MetricRegistry metrics, Clock clock) {
        this.access = access;
        this.limits = limits;
        this.json = limits.json();
        this.retryAfterSeconds = retryAfterSeconds;
        this.clock = clock;
        this.badRequests = metrics.meter("events.auth.bad-requests");
        this.unauthenticated = metrics.meter("events.auth.unauthenticated");
        this.forbidden = metrics.meter("events.auth.forbidden");
        this.unavailable = metrics.meter("events.auth.unavailable");
    }

    /** A poll let in: what it asks for, and the request's context with its caller ({@link #inContextOf}). */
    public record Admitted(PollParameters parameters, Context context) {
    }

    /**
     * A poll's way in: the caller (401 and the like), the query (400), every topic asked (403), then the wait cut to
     * the grant's end. Returns the poll, or null after answering the refusal.
     */
    public Admitted admitPoll(HttpServletRequest request, HttpServletResponse response) throws IOException {
        AccessDecision caller = authenticate(request, TopicAccess.Action.SUBSCRIBE);
        if (!caller.admitted()) {
            answer(response, caller);
            return null;
        }
        PollParameters parameters = limits.parseOrReject(request, response);
        if (parameters == null) {
            return null;
        }
        AccessDecision topics = authorize(caller.grant(), TopicAccess.Action.SUBSCRIBE, parameters.topicNames());
        if (!topics.admitted()) {
            answer(response, topics);
            return null;
        }
        return new Admitted(millisLeft(caller.grant()).map(parameters::waitingAtMost).orElse(parameters),
                inContextOf(caller.grant()));
    }

    /**
     * The current context with {@code grant}'s caller in it, as the baggage entry {@value #CALLER} (which the log's MDC
     * shows as {@code user}), and on the current span; the current context itself for an open grant. Whatever a
     * transport hands on from within it (a parked poll, a stream, a publish) keeps the caller.
     */
    public static Context inContextOf(TopicGrant grant) {
        Optional<String> caller = grant.caller();
        if (caller.isEmpty()) {
            return Context.current();
        }
        Span.current().setAttribute(CALLER, caller.get());
        return Context.current().with(Baggage.current().toBuilder().put(CALLER, caller.get()).build());
    }

    /** The poll query's limits, which {@link #admitPoll} parses with. */
    public PollLimits limits() {
        return limits;
    }

    /** Milliseconds until {@code grant} ends (at least 1), on the gate's clock; empty when it does not end. */
    public Optional<Long> millisLeft(TopicGrant grant) {
        return grant.expiresAt().map(this::millisUntil);
    }

    /** Who is calling, from the request's head; a refusal is counted (the caller answers it, see {@link #answer}). */
    public AccessDecision authenticate(HttpServletRequest request, TopicAccess.Action action) {
        AccessDecision decision = access.authenticate(request, action);
        if (!decision.admitted()) {
            count(decision);
        }
        return decision;
    }

    /**
     * Who may publish, from the head of a request that publishes nothing itself (a WebSocket's upgrade, whose later
     * messages may): as {@link #authenticate} for {@code PUBLISH}, but a refusal is not counted, as nothing was refused
     * yet; it answers each publish that comes.
     */
    public AccessDecision publisherOf(HttpServletRequest request) {
        return access.authenticate(request, TopicAccess.Action.PUBLISH);
    }

    /** Whether {@code grant} covers {@code action} on every one of {@code topics}: the first one it does not is refused, 403. */
    public AccessDecision authorize(TopicGrant grant, TopicAccess.Action action, List<String> topics) {
        for (String topic : topics) {
            if (!grant.allows(action, topic)) {
                forbidden.mark();
                String verb = action == TopicAccess.Action.SUBSCRIBE ? "subscribing to" : "publishing on";
                return AccessDecision.refuse(403, "these credentials do not allow " + verb + " topic " + topic, null);
            }
        }
        return AccessDecision.admit(grant);
    }

    /** Writes the refusal {@code decision}: its challenge, {@code Retry-After} for a 503, and the JSON error. */
    public void answer(HttpServletResponse response, AccessDecision decision) throws IOException {
        decision.challenge().ifPresent(challenge -> response.setHeader("WWW-Authenticate", challenge));
        if (decision.status() == 503) {
            response.setHeader("Retry-After", Long.toString(retryAfterSeconds));
        }
        json.writeError(response, decision.status(), decision.message());
    }

    private void count(AccessDecision refusal) {
        switch (refusal.status()) {
            case 400 -> badRequests.mark();
            case 401 -> unauthenticated.mark();
            case 403 -> forbidden.mark();
            default -> unavailable.mark();
        }
    }

    /** Milliseconds from now until {@code end}, at least 1 (a grant that ends now still gets its poll answered, 204). */
    private long millisUntil(Instant end) {
        return Math.max(1, Duration.between(clock.instant(), end).toMillis());
    }
}
