package com.example.threading.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The default config.yml has no publish token: {@code POST /events} is then open to clients on this machine only. The
 * test client is on loopback, so it may publish, unless its request says it came through a proxy. (Requests from
 * another address are refused by the same rule, unit-tested in {@link PublishAccessTest}.)
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class OpenPublishingTest {

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("events.tickPeriod", "0"));

    static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void aLoopbackClientMayPublishWithoutAToken() {
        assertThat(APP.getConfiguration().getEvents().getPublishToken()).as("config.yml's default").isNullOrEmpty();
        Answer published = HTTP.postJson(LoopbackHttp.url(APP.getLocalPort(), "/events"), "{\"local\":true}");
        assertThat(published.status()).isEqualTo(200);
        assertThat(published.json().get("data").get("local").asBoolean()).isTrue();
    }

    @Test
    void aRequestThatCameThroughAProxyIsRefused403WithTheWayOut() {
        for (String[] header : new String[][] {{"X-Forwarded-For", "203.0.113.9"}, {"Forwarded", "for=203.0.113.9"}}) {
            Answer refused = HTTP.send(LoopbackHttp.request(LoopbackHttp.url(APP.getLocalPort(), "/events"))
                    .header("Content-Type", "application/json").header(header[0], header[1])
                    .POST(HttpRequest.BodyPublishers.ofString("{\"proxied\":true}")).build());
            assertThat(refused.status()).as(header[0]).isEqualTo(403);
            assertThat(refused.json().get("code").asInt()).isEqualTo(403);
            assertThat(refused.json().get("message").asText()).contains("EVENTS_PUBLISH_TOKEN").contains("this machine");
            assertThat(refused.header("Connection")).isEqualTo("close");
        }
    }
}
