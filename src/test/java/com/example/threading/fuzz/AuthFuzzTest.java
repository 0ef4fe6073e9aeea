package com.example.threading.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import com.example.threading.testing.CapturedLog;
import com.example.threading.testing.RawHttpConnection.Reply;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * The fuzz's second configuration: the same service with {@code events.auth.type: jwt} (and {@code access_token}
 * accepted on polls and streams), sent generated polls, event streams and publishes with valid and hostile tokens in
 * the header, the query, both, or neither ({@link FuzzTokens}). Every answer must keep {@link ReplyRules} (a 401 with
 * its challenge, never a 500), and a request without a valid token must be refused: {@code 400} or {@code 401}, Jetty's
 * {@code 414}/{@code 431} for an oversized head, or {@code 405} for a method its endpoint does not take (answered before
 * any credential is read); anything else would be an access check passed without credentials. An admitted stream is
 * ended by the service after its 1 s lifetime. Afterwards nothing may be parked, waiting, open or in flight, and
 * nothing may have been logged at WARN or above.
 */
@AddLifecycleHook(FuzzSeeds.class)
class AuthFuzzTest {

    private static final FuzzedService SERVICE = new FuzzedService(
            ConfigOverride.config("events.auth.type", "jwt"),
            ConfigOverride.config("events.auth.jwt.secret", FuzzTokens.SECRET),
            ConfigOverride.config("events.auth.jwt.queryToken", "true"),
            // An admitted stream ends (event: reconnect) after a second, so that its reply is read to the end.
            ConfigOverride.config("sse.heartbeat", "500ms"),
            ConfigOverride.config("sse.maxLifetime", "1s"));
    /** What a request without a valid token may be answered, whatever its method (405 aside: {@link #refusals}). */
    private static final Set<Integer> REFUSED = Set.of(400, 401, 414, 431);
    private static final CapturedLog LOG = new CapturedLog();
    /** A thread per request of a batch, so that the batch is sent at once. */
    private static final Executor SENDERS = task -> {
        Thread thread = new Thread(task, "auth-fuzz-sender");
        thread.setDaemon(true);
        thread.start();
    };

    @BeforeContainer
    static void startService() throws Exception {
        SERVICE.start();
        LOG.start();
    }

    @AfterContainer
    static void serviceIsQuietAndResponsive() {
        try {
            SERVICE.assertQuietAndResponsive(Duration.ofSeconds(30));
            assertThat(LOG.events().stream().filter(event -> event.getLevel().isGreaterOrEqual(Level.WARN)
                    && !event.getLoggerName().startsWith("net.jqwik")).map(event -> event.getFormattedMessage()).toList())
                    .as("WARN/ERROR log lines during the fuzz").isEmpty();
        } finally {
            LOG.stop();
            SERVICE.stop();
        }
    }

    @Property
    void everyAnswerToATokenIsAllowed(@ForAll("batches") List<FuzzRequest> batch) {
        List<CompletableFuture<Reply>> sent = batch.stream()
                .map(request -> CompletableFuture.supplyAsync(() -> SERVICE.send(request), SENDERS)).toList();
        List<String> broken = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            FuzzRequest request = batch.get(i);
            Reply reply = sent.get(i).orTimeout(30, TimeUnit.SECONDS).join(); // a stream that never ends fails here
            boolean valid = FuzzTokens.carriesAValidToken(request);
            Statistics.label("status").collect(request.endpoint() + " " + reply.status() + (valid ? "" : ", no valid token"));
            List<String> violations = new ArrayList<>(ReplyRules.violations(request.endpoint(), request.head(), reply));
            if (!valid) {
                violations.addAll(refusals(request, reply));
            }
            if (request.endpoint().equals("GET /events/stream") && reply.status() == 200 && !reply.body().contains("event: reconnect")) {
                violations.add("an admitted stream that did not end with event: reconnect at its lifetime");
            }
            for (String violation : violations) {
                broken.add(violation + "\n  request: " + request + "\n  answer: " + reply);
            }
        }
        assertThat(broken).isEmpty();
    }

    @Provide
    Arbitrary<List<FuzzRequest>> batches() {
        // Half the polls and streams carry a token for every topic, so that the parameters behind the check are fuzzed too.
        String everyTopic = "Authorization: Bearer " + FuzzTokens.EVERY_TOPIC;
        Arbitrary<FuzzRequest> admitted = FuzzInputs.poll(everyTopic);
        return Arbitraries.oneOf(FuzzInputs.poll(), admitted, admitted, FuzzInputs.publish(), FuzzInputs.publishBatch(), FuzzInputs.stream(),
                FuzzInputs.stream(everyTopic)).list().ofMinSize(1).ofMaxSize(8);
    }

    /**
     * What the answer to a request that carries no valid token breaks (empty when none): it must be one of {@link
     * #REFUSED}, or 405 for a method its endpoint does not take.
     */
    private static List<String> refusals(FuzzRequest request, Reply reply) {
        int status = reply.status();
        boolean batch = request.endpoint().endsWith(" /events/batch");
        boolean takesMethod = request.method().equals("GET") && !batch
                || request.method().equals("POST") && (batch || request.endpoint().endsWith(" /events"));
        if (status < 100 || REFUSED.contains(status) || status == 405 && !takesMethod) {
            return List.of(); // no answer at all is ReplyRules' to report
        }
        return List.of("answered " + status + " although no valid token came: the access check was passed");
    }
}
