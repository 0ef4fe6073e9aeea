package com.example.threading.work;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.LoopbackHttp;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link VirtualDownstreamTest}'s six requests on two connections with a bulkhead ({@code maxWait} 100 ms): the four
 * beyond the two are answered 503 with Retry-After at once, and counted. JDK 21+.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class VirtualDownstreamBulkheadTest {

    private static final DropwizardAppExtension<ThreadingConfiguration> BULKHEAD = VirtualDownstreamTest.app(
            ConfigOverride.config("work.virtual.maxWait", "100ms"));

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void close() {
        HTTP.close();
    }

    @Test
    void withABulkheadTheRequestsBeyondTheConnectionsAre503AtOnce() {
        Assumptions.assumeTrue(Runtime.version().feature() >= 21, "no virtual threads below JDK 21: /work/virtual is 501");
        List<CompletableFuture<LoopbackHttp.Answer>> answers = VirtualDownstreamTest.sendAll(HTTP, BULKHEAD);

        List<LoopbackHttp.Answer> refused = new ArrayList<>();
        int ok = 0;
        for (CompletableFuture<LoopbackHttp.Answer> answer : answers) {
            LoopbackHttp.Answer done = answer.join();
            if (done.status() == 200) {
                ok++;
            } else {
                refused.add(done);
            }
        }
        assertThat(ok).isEqualTo(VirtualDownstreamTest.CONNECTIONS);
        assertThat(refused).hasSize(VirtualDownstreamTest.REQUESTS - VirtualDownstreamTest.CONNECTIONS).allSatisfy(answer -> {
            assertThat(answer.status()).isEqualTo(503);
            assertThat(answer.header("Retry-After")).isEqualTo("1");
            assertThat(answer.json().path("message").asText()).contains("downstream connections busy");
            assertThat(answer.latencyMs()).as("refused after maxWait, not after the 2 s wait").isLessThan(2_000);
        });
        assertThat(BULKHEAD.getEnvironment().metrics().meter("work.virtual.downstream.refused").getCount())
                .isEqualTo(VirtualDownstreamTest.REQUESTS - VirtualDownstreamTest.CONNECTIONS);
    }
}
