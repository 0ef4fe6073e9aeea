package com.example.threading.events.sse;

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
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * A real browser's {@code EventSource} (Debian's chromium, headless) on {@code GET /events/stream}: it receives the
 * events, the server ends its stream (the stream's lifetime, {@code event: reconnect}), the browser reconnects by
 * itself with its {@code Last-Event-ID}, and every event arrives exactly once, in order, also those published while
 * it was away. Without chromium the test fails under {@code CI=true} and is skipped elsewhere, naming
 * {@value HeadlessChromium#INSTALL}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class EventSourceBrowserTest {

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml", ConfigOverride.randomPorts(),
            ConfigOverride.config("events.tickPeriod", "0s"),
            ConfigOverride.config("sse.maxLifetime", "3s"),
            ConfigOverride.config("sse.heartbeat", "1s"),
            ConfigOverride.config("sse.retry", "200ms"));
    private static final Duration BOUND = Duration.ofSeconds(30);

    @Test
    void anEventSourceResumesAfterTheServerEndsItsStreamWithoutLossOrDuplicate(@TempDir Path profile) {
        ChromeDriver browser = HeadlessChromium.start(profile, 800, 600);
        try (LoopbackHttp http = new LoopbackHttp()) {
            String origin = "http://127.0.0.1:" + APP.getLocalPort();
            browser.get(origin + "/a-page-of-this-origin"); // a JSON 404, but the script runs on this origin
            browser.executeScript("""
                    window.received = []; window.ends = 0; window.opens = 0;
                    const stream = new EventSource('/events/stream?topic=browser');
                    stream.onopen = () => window.opens++;
                    stream.onmessage = e => window.received.push(JSON.parse(e.data).id + '@' + e.lastEventId);
                    stream.addEventListener('reconnect', () => window.ends++);
                    """);
            Await.until(() -> number(browser, "window.opens") >= 1 && parked() >= 1, BOUND, "the stream open");
            IntStream.rangeClosed(1, 3).forEach(i -> publish(http, origin));
            Await.until(() -> received(browser).size() == 3, BOUND, "three events");

            Await.until(() -> number(browser, "window.ends") >= 1, BOUND, "the server ends the stream (lifetime)");
            publish(http, origin); // while the browser waits its retry: before or after it reconnects, it must arrive once
            Await.until(() -> number(browser, "window.opens") >= 2 && parked() >= 1, BOUND, "the browser reconnected");
            publish(http, origin);
            Await.until(() -> received(browser).size() >= 5, BOUND, "five events");

            List<String> received = received(browser);
            assertThat(received).extracting(entry -> entry.substring(0, entry.indexOf('@')))
                    .as("each event once, in order").containsExactly("1", "2", "3", "4", "5");
            assertThat(received).allSatisfy(entry -> assertThat(entry).matches("(\\d+)@browser:\\1:[A-Za-z0-9-]+"));
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
    private static List<String> received(ChromeDriver browser) {
        return (List<String>) browser.executeScript("return window.received.slice();");
    }
}
