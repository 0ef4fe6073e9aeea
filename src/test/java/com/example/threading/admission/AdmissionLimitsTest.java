package com.example.threading.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The pure parts: the default derived from the thread bound, resolution of empty values, the 503 body. */
class AdmissionLimitsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest(name = "{0} threads -> {1}")
    @CsvSource({"200, 190", "1000, 950", "10000, 9500", "64, 56", "16, 8", "9, 1", "8, 1", "1, 1"})
    void theDefaultLeavesAMarginOfFivePercentButAtLeastEight(int threadBound, int expected) {
        assertThat(AdmissionLimits.defaultMaxRequests(threadBound)).isEqualTo(expected);
    }

    @Test
    void aThreadBoundBelowOneIsRefused() {
        assertThatThrownBy(() -> AdmissionLimits.defaultMaxRequests(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
    }

    @Test
    void emptyValuesAreDerivedFromTheThreadBoundAndTheQueueFollowsMaxRequests() throws Exception {
        AdmissionLimits limits = AdmissionLimits.resolve(configuration("{}"), 200);

        assertThat(limits).isEqualTo(new AdmissionLimits(190, 190, Duration.ofSeconds(1), 1));
    }

    @Test
    void explicitValuesWinOverTheThreadBound() throws Exception {
        AdmissionLimits limits = AdmissionLimits.resolve(configuration(
                "{\"maxRequests\":50,\"maxQueued\":0,\"maxQueueTime\":\"250ms\",\"retryAfter\":\"3s\"}"), 200);

        assertThat(limits).isEqualTo(new AdmissionLimits(50, 0, Duration.ofMillis(250), 3));
    }

    @Test
    void aRecordOutOfRangeIsRefused() {
        assertThatThrownBy(() -> new AdmissionLimits(1, 0, Duration.ZERO, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxQueueTime PT0S (> 0)");
    }

    @Test
    void theRefusalBodyIsTheServiceErrorJson() throws Exception {
        OverloadAnswer answer = new OverloadAnswer(JSON, new AdmissionLimits(190, 190, Duration.ofSeconds(1), 1));

        JsonNode body = JSON.readTree(answer.queueFullBody());
        assertThat(body.path("code").asInt()).isEqualTo(503);
        assertThat(body.path("message").asText()).isEqualTo("server busy: 190 requests in flight and 190 waiting; retry after 1 s");
        assertThat(body.size()).isEqualTo(2);
    }

    private static AdmissionConfiguration configuration(String json) throws Exception {
        return io.dropwizard.jackson.Jackson.newObjectMapper().readValue(json, AdmissionConfiguration.class);
    }
}
