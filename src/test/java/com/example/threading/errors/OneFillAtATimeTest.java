package com.example.threading.errors;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.RawHttpConnection;
import com.example.threading.testing.RawHttpConnection.Reply;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.time.Duration;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every connector of the service makes its HTTP/1.1 connections with {@link OneFillAtATime}, still timed by
 * Dropwizard's connection timer, and they answer as before: a refused head its JSON 400 or 431, a request after it its
 * answer, on both ports.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class OneFillAtATimeTest {

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml", ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("events.tickPeriod", "0s"));

    @Test
    void everyConnectorMakesItsHttp1ConnectionsOneFillAtATime() {
        Server server = APP.getEnvironment().getApplicationContext().getServer();
        assertThat(server.getConnectors()).hasSize(2);
        for (Connector connector : server.getConnectors()) {
            assertThat(OneFillAtATime.installedOn(connector)).as(connector.getName()).isTrue();
            assertThat(connector.getDefaultConnectionFactory().getProtocol()).isEqualTo("HTTP/1.1");
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void refusedHeadsAreAnsweredJsonAndTheConnectionsAreTimed(boolean admin) {
        int port = admin ? APP.getAdminPort() : APP.getLocalPort();
        // Dropwizard's name for the connections timer: both connectors bind 127.0.0.1 on port 0 (random) here, so they share it.
        Timer connections = APP.getEnvironment().metrics().timer(MetricRegistry.name(HttpConnectionFactory.class, "127.0.0.1", "0", "connections"));
        long before = connections.getCount();
        Reply nul = send(port, "GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Fuzz: \u0000\r\n\r\n");
        Reply large = send(port, "GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Fuzz: " + "v".repeat(9_000) + "\r\n\r\n");
        Reply ok = send(port, "GET " + (admin ? "/ping" : "/work/cached?ms=1") + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        assertThat(nul.status()).isEqualTo(400);
        assertThat(nul.body()).startsWith("{\"code\":400,");
        assertThat(large.status()).isEqualTo(431);
        assertThat(large.body()).startsWith("{\"code\":431,");
        assertThat(ok.status()).isEqualTo(200);
        // The timer counts a connection when it closes, a moment after its answer was read.
        Await.until(() -> connections.getCount() >= before + 3, Duration.ofSeconds(10), "three more connections timed");
    }

    private static Reply send(int port, String request) {
        try (RawHttpConnection connection = RawHttpConnection.open(port)) {
            return connection.send(request).readReply();
        }
    }
}
