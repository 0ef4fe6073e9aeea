package com.example.threading.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A configured downstream that refuses connections: every via counts the failures and still answers 200. */
@ExtendWith(DropwizardExtensionsSupport.class)
class FanoutDownstreamFailureTest {

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("client.downstreamUrl", () -> "http://127.0.0.1:" + closedLoopbackPort() + "/work/cached"));

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"managed", "rxjava", "callback", "common"})
    void refusedConnectionsAreCountedAsErrors(String via) {
        LoopbackHttp.Answer response = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/fanout?n=5&ms=10&via=" + via));

        assertThat(response.status()).as(response.body()).isEqualTo(200);
        JsonNode answer = response.json();
        assertThat(answer.get("via").asText()).as(answer.toString()).isEqualTo(via);
        assertThat(answer.get("succeeded").asInt()).as(answer.toString()).isZero();
        assertThat(answer.get("errors").asInt()).as(answer.toString()).isEqualTo(5);
        assertThat(answer.get("errorsByKind").size()).as(response.body()).isEqualTo(1);
        assertThat(answer.get("errorsByKind").fieldNames().next()).contains("Connect");
    }

    /** A loopback port nothing listens on: bound by the OS, then released. */
    private static int closedLoopbackPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
