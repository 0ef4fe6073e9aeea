package com.example.threading.events.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.events.EventsBundle;
import com.example.threading.events.EventsConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.TestSocket;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.ResourceHelpers;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.eclipse.jetty.websocket.client.WebSocketClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * WebSocket copied as an add-on: a bare Dropwizard application with the long-poll's {@link EventsBundle} and one more
 * line, {@link WebSocketBundle}, each with its own section. A publish on the socket goes through the long-poll's stream.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class WebSocketLiftOutTest {

    /** A copier's configuration: Dropwizard's, plus the two sections. */
    public static final class LiftedConfiguration extends Configuration {
        @Valid
        @NotNull
        @JsonProperty
        private EventsConfiguration events = new EventsConfiguration();

        @Valid
        @NotNull
        @JsonProperty
        private WebSocketConfiguration websocket = new WebSocketConfiguration();

        EventsConfiguration getEvents() {
            return events;
        }

        WebSocketConfiguration getWebsocket() {
            return websocket;
        }
    }

    /** A copier's application: the long-poll, then the sockets on top of it. */
    public static final class LiftedApplication extends Application<LiftedConfiguration> {
        @Override
        public void initialize(Bootstrap<LiftedConfiguration> bootstrap) {
            EventsBundle<LiftedConfiguration> events = new EventsBundle<>(LiftedConfiguration::getEvents);
            bootstrap.addBundle(events);
            bootstrap.addBundle(new WebSocketBundle<>(events::base, LiftedConfiguration::getWebsocket));
        }

        @Override
        public void run(LiftedConfiguration configuration, Environment environment) {
        }
    }

    private static final DropwizardAppExtension<LiftedConfiguration> APP = new DropwizardAppExtension<>(
            LiftedApplication.class, ResourceHelpers.resourceFilePath(LiftOut.CONFIG),
            ConfigOverride.config("events.tickPeriod", "0s"));
    private static final LoopbackHttp HTTP = new LoopbackHttp();
    private static final WebSocketClient CLIENT = new WebSocketClient();
    private static final Duration BOUND = Duration.ofSeconds(20);

    @BeforeAll
    static void startClient() throws Exception {
        CLIENT.start();
    }

    @AfterAll
    static void stopClients() throws Exception {
        CLIENT.stop();
        HTTP.close();
    }

    @Test
    void aSocketPublishesAndReceivesAndAPollSeesItsEvent() throws Exception {
        try (TestSocket socket = TestSocket.open(CLIENT, URI.create("ws://127.0.0.1:" + APP.getLocalPort()
                + "/events/ws?topic=lifted"), Map.of(), BOUND)) {
            Await.until(() -> gauge("events.websocket.open") == 1 && gauge("events.parked") == 1, BOUND,
                    "the socket open and its poll parked");

            socket.send("{\"publish\":{\"topic\":\"lifted\",\"data\":{\"n\":1}},\"ref\":1}");

            JsonNode event = nextEvent(socket);
            assertThat(event.path("event").path("data").path("n").asInt()).isEqualTo(1);
            assertThat(event.path("position").asText()).startsWith("lifted:1:");
        }
        JsonNode polled = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/events?topic=lifted&after=0&timeout=1")).json();
        assertThat(polled.get("events").get(0).get("data").get("n").asInt())
                .as("the socket's publish went to the long-poll's stream").isEqualTo(1);
        Await.until(() -> gauge("events.websocket.open") == 0, BOUND, "the socket's place given back");
    }

    /** The next event message, past the publish's acknowledgement (which may come before or after it). */
    private static JsonNode nextEvent(TestSocket socket) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            JsonNode message = socket.next(BOUND);
            if (message.path("type").asText().equals("event")) {
                return message;
            }
        }
        throw new AssertionError("no event message among the first three");
    }

    private static int gauge(String name) {
        return ((Number) APP.getEnvironment().metrics().getGauges().get(name).getValue()).intValue();
    }
}
