package com.example.threading.errors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The body and the message rule, without a server. */
class ErrorBodyTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void bodyIsCodeAndMessageOnlyAndEscaped() throws IOException {
        JsonNode body = JSON.readTree(ErrorBody.json(400, "a \"quoted\"\nline \u0000 \u00e9"));

        assertThat(body.size()).isEqualTo(2);
        assertThat(body.get("code").asInt()).isEqualTo(400);
        assertThat(body.get("message").asText()).isEqualTo("a \"quoted\"\nline \u0000 \u00e9");
    }

    @Test
    void serverFaultsShowOnlyTheReasonPhrase() {
        assertThat(ErrorBody.message(500, "java.lang.NullPointerException: x is null", new NullPointerException("x is null")))
                .isEqualTo("Server Error");
        assertThat(ErrorBody.message(503, "pool exhausted at com.example.X", null)).isEqualTo("Service Unavailable");
    }

    @Test
    void exceptionClassNamesAreStripped() {
        IllegalArgumentException cause = new IllegalArgumentException("bad");
        assertThat(ErrorBody.message(400, cause.toString(), cause)).isEqualTo("Bad Request");
        assertThat(ErrorBody.message(400, "org.eclipse.jetty.http.BadMessageException: java.io.IOException: Bad chunk", null))
                .isEqualTo("Bad chunk");
        assertThat(ErrorBody.message(400, "java.lang.IllegalStateException", null)).isEqualTo("Bad Request");
    }

    @Test
    void absentOrBlankDetailGivesTheReasonPhrase() {
        assertThat(ErrorBody.message(404, null, null)).isEqualTo("Not Found");
        assertThat(ErrorBody.message(431, "  ", null)).isEqualTo("Request Header Fields Too Large");
    }

    @Test
    void longDetailIsCut() {
        String message = ErrorBody.message(414, "x".repeat(100_000), null);

        assertThat(message).hasSize(ErrorBody.MAX_MESSAGE_LENGTH).endsWith("…");
    }

    @Test
    void ordinaryDetailIsKept() {
        assertThat(ErrorBody.message(400, "No Host", null)).isEqualTo("No Host");
    }
}
