package com.example.threading.work;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.ResourceHelpers;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The work patterns copied alone: a bare Dropwizard application whose only addition is {@link WorkBundle}. */
@ExtendWith(DropwizardExtensionsSupport.class)
class WorkLiftOutTest {

    /** A copier's configuration: Dropwizard's, plus the one section. */
    public static final class LiftedConfiguration extends Configuration {
        @Valid
        @NotNull
        @JsonProperty
        private WorkConfiguration work = new WorkConfiguration();

        WorkConfiguration getWork() {
            return work;
        }
    }

    /** A copier's application: one addBundle line. */
    public static final class LiftedApplication extends Application<LiftedConfiguration> {
        @Override
        public void initialize(Bootstrap<LiftedConfiguration> bootstrap) {
            bootstrap.addBundle(new WorkBundle<>(LiftedConfiguration::getWork));
        }

        @Override
        public void run(LiftedConfiguration configuration, Environment environment) {
        }
    }

    private static final DropwizardAppExtension<LiftedConfiguration> APP = new DropwizardAppExtension<>(
            LiftedApplication.class, ResourceHelpers.resourceFilePath(LiftOut.CONFIG));
    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "thread-per-request", "cached", "bounded"})
    void everyPatternAnswersOnItsOwnThreads(String pattern) {
        Answer answer = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/work/" + pattern + "?ms=20"));

        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.json().get("pattern").asText()).isEqualTo(pattern);
        assertThat(answer.json().get("waitedMs").asLong()).isGreaterThanOrEqualTo(20);
        if (!pattern.equals("blocking")) {
            assertThat(answer.json().get("thread").asText()).startsWith("work-" + pattern + "-");
        }
    }

    @Test
    void virtualAnswersOnAVirtualThreadOrSaysWhyNot() {
        Answer answer = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/work/virtual?ms=1"));

        assertThat(answer.status()).as(answer.body()).isEqualTo(Runtime.version().feature() >= 21 ? 200 : 501);
    }

    @Test
    void aWaitOutOfRangeIs400() {
        assertThat(HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/work/cached?ms=60001")).status()).isEqualTo(400);
    }

    @Test
    void theMetricsAndHealthCheckComeWithTheBundle() {
        assertThat(APP.getEnvironment().metrics().getTimers()).containsKey("work.cached.response-time");
        assertThat(APP.getEnvironment().healthChecks().getNames()).contains("work-bounded-pool");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/work/cached?ms=300", "/work/bounded?ms=300", "/work/thread-per-request?ms=300"})
    void aClientResetMidRequestLeavesNothingInFlight(String pathAndQuery) throws Exception {
        LiftOut.resetsLeaveNothingInFlight(APP.getEnvironment(), APP.getLocalPort(), pathAndQuery, 100);
    }
}
