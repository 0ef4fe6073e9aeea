package com.example.threading.admission;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.AdminMetrics;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code admission.limit: gradient2} on the real server: the limit grows under steady concurrent load, the excess gets 503 at once. */
@ExtendWith(DropwizardExtensionsSupport.class)
class AdaptiveAdmissionTest {

    static final int CEILING = 60;

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("events.tickPeriod", "0"),
            ConfigOverride.config("admission.limit", "gradient2"),
            ConfigOverride.config("admission.maxRequests", String.valueOf(CEILING)));

    static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    static AdminMetrics admin() {
        return new AdminMetrics(HTTP, APP.getAdminPort());
    }

    @Test
    void theLimitStartsAtTheFloorGrowsWhileLatencyHoldsAndTheExcessIsRefusedAtOnce() {
        assertThat(APP.getEnvironment().getApplicationContext().getDescendant(AdaptiveAdmissionHandler.class)).isNotNull();
        assertThat(admin().gauge("admission.adaptive-limit")).isEqualTo(AdaptiveAdmissionHandler.FLOOR);
        long rejectedBefore = admin().count("admission.rejected");

        // A burst three times the floor, before the limit had a chance to grow: the floor's worth admitted.
        List<Answer> burst = HTTP.getAll(LoopbackHttp.url(APP.getLocalPort(), "/work/blocking?ms=1000"), 3 * AdaptiveAdmissionHandler.FLOOR);
        List<Answer> refused = burst.stream().filter(a -> a.status() != 200).toList();
        assertThat(burst.size() - refused.size()).isGreaterThanOrEqualTo(AdaptiveAdmissionHandler.FLOOR);
        assertThat(refused).isNotEmpty().allSatisfy(a -> {
            assertThat(a.status()).isEqualTo(503);
            assertThat(a.header("Retry-After")).isEqualTo("1");
            assertThat(a.json().path("message").asText()).contains("adaptive concurrency limit");
            assertThat(a.latencyMs()).isLessThan(1000);
        });
        assertThat(admin().count("admission.rejected") - rejectedBefore).isEqualTo(refused.size());

        // Waves that keep more than half the limit busy at a steady latency: Gradient2 raises the limit.
        Await.until(() -> {
            HTTP.waves(LoopbackHttp.url(APP.getLocalPort(), "/work/cached?ms=50"), 3, AdaptiveAdmissionHandler.FLOOR);
            return admin().gauge("admission.adaptive-limit") > AdaptiveAdmissionHandler.FLOOR;
        }, Duration.ofSeconds(20), "adaptive limit above its floor");
        assertThat(admin().gauge("admission.adaptive-limit")).isLessThanOrEqualTo(CEILING);
        Await.until(() -> admin().gauge("admission.active") == 0, Duration.ofSeconds(5), "places free");
    }
}
