package com.example.threading.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A restart starts every in-process history again at id 1: a cursor kept from before it names ids that exist again,
 * in another history. With its epoch the poll is told so ({@code missed}, the new epoch and cursor), never served the
 * new history's events as if they followed its own.
 */
class EpochRestartTest {

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void aCursorFromBeforeARestartIsToldItsHistoryIsGone() throws Exception {
        JsonNode before = publishTwiceAndReadFromTheStart();
        String oldEpoch = before.get("epoch").asText();
        assertThat(before.get("lastId").asLong()).isEqualTo(2);

        DropwizardTestSupport<ThreadingConfiguration> restarted = server();
        restarted.before();
        try {
            publish(restarted, "{\"after\":\"restart\"}");
            publish(restarted, "{\"after\":\"restart\"}");
            // Cursor 1 of the old history: id 2 exists again, but is not the event that followed the client's id 1.
            Answer stale = HTTP.get(url(restarted, "/events?topic=room&after=1&epoch=" + oldEpoch + "&timeout=5"));
            Answer withoutEpoch = HTTP.get(url(restarted, "/events?topic=room&after=1&timeout=5"));

            assertThat(stale.status()).isEqualTo(200);
            assertThat(stale.json().get("events")).as("no event of the new history").isEmpty();
            assertThat(stale.json().get("missed").asBoolean()).isTrue();
            assertThat(stale.json().get("lastId").asLong()).isEqualTo(2);
            assertThat(stale.json().get("epoch").asText()).isNotEqualTo(oldEpoch);
            assertThat(withoutEpoch.json().get("events").get(0).get("data").get("after").asText())
                    .as("what a client without the epoch gets: the new history's event 2, silently").isEqualTo("restart");
        } finally {
            restarted.after();
        }
    }

    private static JsonNode publishTwiceAndReadFromTheStart() throws Exception {
        DropwizardTestSupport<ThreadingConfiguration> first = server();
        first.before();
        try {
            publish(first, "{\"before\":\"restart\"}");
            publish(first, "{\"before\":\"restart\"}");
            Answer read = HTTP.get(url(first, "/events?topic=room&after=0&timeout=5"));
            assertThat(read.status()).isEqualTo(200);
            return read.json();
        } finally {
            first.after();
        }
    }

    private static DropwizardTestSupport<ThreadingConfiguration> server() {
        return new DropwizardTestSupport<>(ThreadingApplication.class, "config.yml", ConfigOverride.randomPorts(),
                ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
                ConfigOverride.config("events.tickPeriod", "0s"));
    }

    private static void publish(DropwizardTestSupport<ThreadingConfiguration> server, String json) {
        assertThat(HTTP.postJson(url(server, "/events?topic=room"), json).status()).isEqualTo(200);
    }

    private static String url(DropwizardTestSupport<ThreadingConfiguration> server, String pathAndQuery) {
        return LoopbackHttp.url(server.getLocalPort(), pathAndQuery);
    }
}
