package com.example.threading.events.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.live.HeadlessChromium;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * A real browser's {@code WebSocket} (Debian's chromium, headless) on {@code GET /events/ws}: it subscribes, publishes
 * on the socket (each publish acknowledged), the server ends the socket (its lifetime: {@code reconnect}, close code
 * 1001), the page reconnects from its last position, and every event arrives exactly once, in order, also the one
 * published while it was away. Without chromium the test fails under {@code CI=true} and is skipped elsewhere, naming
 * {@value HeadlessChromium#INSTALL}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class WebSocketBrowserTest {

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml", ConfigOverride.randomPorts(),
            ConfigOverride.config("events.tickPeriod", "0s"),
            ConfigOverride.config("websocket.maxLifetime", "3s"),
            ConfigOverride.config("websocket.heartbeat", "1s"));
    private static final Duration BOUND = Duration.ofSeconds(30);

    @Test
    void aPageSubscribesPublishesAndResumesAfterTheServerEndsItsSocketWithoutLossOrDuplicate(@TempDir Path profile) {
        ChromeDriver browser = HeadlessChromium.start(profile, 800, 600);
        try (LoopbackHttp http = new LoopbackHttp()) {
            String origin = "http://127.0.0.1:" + APP.getLocalPort();
            browser.get(origin + "/a-page-of-this-origin"); // a JSON 404, but the script runs on this origin
            browser.executeScript("""
                    window.received = []; window.acks = 0; window.opens = 0; window.ends = 0; window.codes = [];
                    window.position = 'browser';
                    window.connect = () => {
                      const socket = new WebSocket('ws://' + location.host + '/events/ws?topic=' + window.position);
                      window.socket = socket;
                      socket.onopen = () => window.opens++;
                      socket.onmessage = e => {
                        const message = JSON.parse(e.data);
                        if (message.type === 'event') {
                          window.received.push(message.event.id + '@' + message.position);
                          window.position = message.position;
                        } else if (message.type === 'ack') {
                          window.acks++;
                        } else if (message.type === 'reconnect') {
                          window.ends++;
                        }
                      };
                      socket.onclose = e => { window.codes.push(e.code); setTimeout(window.connect, 200); };
                    };
                    window.publish = n => window.socket.send(JSON.stringify({publish: {topic: 'browser', data: {n}}, ref: n}));
                    window.connect();
                    """);
            Await.until(() -> number(browser, "window.opens") >= 1 && parked() >= 1, BOUND, "the socket open");
            browser.executeScript("window.publish(1); window.publish(2);");
            Await.until(() -> received(browser).size() == 2 && number(browser, "window.acks") == 2, BOUND,
                    "two events published on the socket, acknowledged and received");
            publish(http, origin);
            Await.until(() -> received(browser).size() == 3, BOUND, "three events");

            Await.until(() -> number(browser, "window.ends") >= 1, BOUND, "the server ends the socket (lifetime)");
            publish(http, origin); // while the page waits to reconnect: before or after, it must arrive once
            Await.until(() -> number(browser, "window.opens") >= 2 && parked() >= 1, BOUND, "the page reconnected");
            browser.executeScript("window.publish(5);");
            Await.until(() -> received(browser).size() >= 5, BOUND, "five events");

            List<String> received = received(browser);
            assertThat(received).extracting(entry -> entry.substring(0, entry.indexOf('@')))
                    .as("each event once, in order").containsExactly("1", "2", "3", "4", "5");
            assertThat(received).allSatisfy(entry -> assertThat(entry).matches("(\\d+)@browser:\\1:[A-Za-z0-9-]+"));
            assertThat(numbers(browser, "window.codes")).as("the lifetime's close code").contains(1001L);
            assertThat(APP.getEnvironment().metrics().getMeters().get("events.missed").getCount()).isZero();
        } finally {
            browser.quit();
        }
    }

    private static void publish(LoopbackHttp http, String origin) {
        assertThat(http.postJson(origin + "/events?topic=browser", "{}").status()).isEqualTo(200);
    }

    private static long parked() {
        return ((Number) APP.getEnvironment().metrics().getGauges().get("events.parked").getValue()).longValue();
    }

    private static long number(ChromeDriver browser, String expression) {
        return ((Number) browser.executeScript("return " + expression + ";")).longValue();
    }

    @SuppressWarnings("unchecked")
    private static List<Long> numbers(ChromeDriver browser, String expression) {
        return (List<Long>) browser.executeScript("return " + expression + ".slice();");
    }

    @SuppressWarnings("unchecked")
    private static List<String> received(ChromeDriver browser) {
        return (List<String>) browser.executeScript("return window.received.slice();");
    }
}
