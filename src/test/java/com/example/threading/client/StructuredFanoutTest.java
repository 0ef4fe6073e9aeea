package com.example.threading.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code /fanout?via=structured} on the service: on JDK 25 (the suite's JVM enables preview features there) every call
 * is a subtask on a virtual thread of its own, and the places are free again by the time it answers (a next fan-out of
 * every place, sent at once, is admitted); below JDK 25 a 501 says what it needs.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class StructuredFanoutTest {

    static final String CALLS = "fanout-structured-call-";

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml", ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("events.tickPeriod", "0s"));

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void close() {
        HTTP.close();
    }

    /** Whether this JVM runs via=structured: JDK 25, whose test JVM has --enable-preview (the pom's profile). */
    static boolean structuredRuns() {
        return Runtime.version().feature() == 25;
    }

    @Test
    void everyCallIsASubtaskOnAVirtualThreadOfItsOwn() {
        LoopbackHttp.Answer response = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/fanout?n=20&ms=200&via=structured"));
        if (!structuredRuns()) {
            assertThat(response.status()).as(response.body()).isEqualTo(501);
            assertThat(response.json().path("message").asText()).contains("needs JDK 25 started with --enable-preview");
            return;
        }

        assertThat(response.status()).as(response.body()).isEqualTo(200);
        JsonNode answer = response.json();
        assertThat(answer.get("via").asText()).isEqualTo("structured");
        assertThat(answer.get("succeeded").asInt()).as(answer.toString()).isEqualTo(20);
        assertThat(answer.get("errors").asInt()).as(answer.toString()).isZero();
        List<String> pools = new ArrayList<>();
        answer.get("threadsByPool").fieldNames().forEachRemaining(pools::add);
        assertThat(pools).as(answer.toString()).containsExactly(CALLS);
        assertThat(answer.get("distinctThreads").asInt()).as("one thread per call, never reused").isEqualTo(20);
        assertThat(answer.get("executor").asText()).contains("StructuredTaskScope");
        Await.until(() -> inFlight(APP) == 0, Duration.ofSeconds(10), "the scope's places given back");
    }

    @Test
    void aFanoutRightAfterAnotherThatTookEveryPlaceFindsThemFree() {
        Assumptions.assumeTrue(structuredRuns(), "via=structured runs on JDK 25 only");
        for (int round = 0; round < 5; round++) {
            LoopbackHttp.Answer response = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/fanout?n=128&ms=0&via=structured"));

            assertThat(response.status()).as("round %d: %s", round, response.body()).isEqualTo(200);
            assertThat(response.json().get("succeeded").asInt()).isEqualTo(128);
        }
    }

    @Test
    void anUnknownViaStillGets400() {
        LoopbackHttp.Answer response = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/fanout?via=scoped"));

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().path("message").asText()).contains("common, structured");
    }

    static int inFlight(DropwizardAppExtension<ThreadingConfiguration> app) {
        return ((Number) app.getEnvironment().metrics().getGauges().get("client.fanout.in-flight").getValue()).intValue();
    }
}
