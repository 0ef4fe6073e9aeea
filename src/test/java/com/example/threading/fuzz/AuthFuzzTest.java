package com.example.threading.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import com.example.threading.testing.CapturedLog;
import com.example.threading.testing.RawHttpConnection.Reply;
import io.dropwizard.testing.ConfigOverride;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
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
 * accepted on polls), sent generated polls and publishes with valid and hostile tokens in the header, the query, both,
 * or neither ({@link FuzzTokens}). Every answer must keep {@link ReplyRules} (a 401 with its challenge, never a 500);
 * afterwards nothing may be parked, waiting or in flight, and nothing may have been logged at WARN or above.
 */
@AddLifecycleHook(FuzzSeeds.class)
class AuthFuzzTest {

    private static final FuzzedService SERVICE = new FuzzedService(
            ConfigOverride.config("events.auth.type", "jwt"),
            ConfigOverride.config("events.auth.jwt.secret", FuzzTokens.SECRET),
            ConfigOverride.config("events.auth.jwt.queryToken", "true"));
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
            Reply reply = sent.get(i).join();
            Statistics.label("status").collect(request.endpoint().split(" ")[0] + " " + reply.status());
            for (String violation : ReplyRules.violations(request.endpoint(), request.head(), reply)) {
                broken.add(violation + "\n  request: " + request + "\n  answer: " + reply);
            }
        }
        assertThat(broken).isEmpty();
    }

    @Provide
    Arbitrary<List<FuzzRequest>> batches() {
        // Half the polls carry a token for every topic, so that the parameters behind the access check are fuzzed too.
        Arbitrary<FuzzRequest> admitted = FuzzInputs.poll("Authorization: Bearer " + FuzzTokens.EVERY_TOPIC);
        return Arbitraries.oneOf(FuzzInputs.poll(), admitted, admitted, FuzzInputs.publish()).list().ofMinSize(1).ofMaxSize(8);
    }
}
