package com.example.threading.live;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * The live page in a real browser (Debian's chromium, headless, see {@link HeadlessChromium}) against the running
 * service: reached from the admin menu, it draws every chart, its numbers move when the service is put under load
 * (the cached pool grows, requests are in flight, the bounded pool's refusals show per second), its console stays
 * free of errors (a script error or a blocked request would be one), and every request the browser makes goes to the
 * admin port's own origin. The page's last state is saved to {@code target/live-page-test.png} for a look.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class LivePageBrowserTest {

    /** A bounded pool of 2 threads and no queue: a third concurrent /work/bounded gets 503 at once. */
    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml", ConfigOverride.randomPorts(),
            ConfigOverride.config("events.tickPeriod", "0s"),
            ConfigOverride.config("work.boundedPool.threads", "2"),
            ConfigOverride.config("work.boundedPool.queueCapacity", "0"));

    private static final int CACHED_WAITS = 30;
    private static final int BOUNDED_REQUESTS = 8;
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern NETWORK_SCHEMES = Pattern.compile("(?i)(https?|wss?|ftp):");

    @Test
    void thePageChartsTheServiceLiveFromItsOwnOriginOnly(@TempDir Path profile) throws Exception {
        LiveEndpointsTest.JvmMetrics.register(APP.getEnvironment().metrics());
        String origin = "http://127.0.0.1:" + APP.getAdminPort();
        int charts = LiveCharts.standard().size();
        ChromeDriver browser = HeadlessChromium.start(profile, 1400, 2400);
        try (LoopbackHttp http = new LoopbackHttp()) {
            browser.get(origin + "/");
            browser.findElement(By.partialLinkText("Live")).click();
            Await.until(() -> browser.getCurrentUrl().equals(origin + "/live"), BOUND, "the menu's link opens the page");
            Await.until(() -> sections(browser).size() == charts && sections(browser).stream()
                    .allMatch(section -> Integer.parseInt(section.getAttribute("data-points")) >= 3), BOUND,
                    "every chart drawn with three reads");
            assertThat(value(browser, "work.cached.executor.pool.size")).isLessThan(CACHED_WAITS);

            List<CompletableFuture<LoopbackHttp.Answer>> load = new ArrayList<>();
            for (int i = 0; i < CACHED_WAITS; i++) {
                load.add(http.getAsync(LoopbackHttp.url(APP.getLocalPort(), "/work/cached?ms=6000")));
            }
            for (int i = 0; i < BOUNDED_REQUESTS; i++) {
                load.add(http.getAsync(LoopbackHttp.url(APP.getLocalPort(), "/work/bounded?ms=6000")));
            }
            Await.until(() -> value(browser, "work.bounded.rejected") > 0, BOUND, "the bounded pool's 503s per second shown");
            List<String> inFlight = List.of("work.cached.executor.pool.size", "work.cached.executor.running",
                    "io.dropwizard.jetty.MutableServletContextHandler.active-requests");
            Await.until(() -> inFlight.stream().map(metric -> value(browser, metric)).toList(),
                    shown -> shown.stream().allMatch(number -> number >= CACHED_WAITS), BOUND,
                    "the cached pool's threads and the requests in flight shown: " + inFlight);
            assertThat(value(browser, "work.bounded.places-taken")).isEqualTo(2);
            CompletableFuture.allOf(load.toArray(CompletableFuture[]::new)).get(BOUND.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
            Await.until(() -> value(browser, "work.cached.executor.running") == 0, BOUND, "the waits' end shown");

            for (WebElement section : sections(browser)) {
                assertThat(paintedPixels(browser, section)).as(section.findElement(By.tagName("h2")).getText()).isPositive();
            }
            Files.write(Path.of("target", "live-page-test.png"), browser.getScreenshotAs(OutputType.BYTES));

            List<String> consoleProblems = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
                    .filter(entry -> entry.getLevel().intValue() >= Level.WARNING.intValue())
                    // Dropwizard's admin menu, visited first, has no icon (the live page has its own, live/icon.svg).
                    .filter(entry -> !entry.getMessage().startsWith(origin + "/favicon.ico "))
                    .map(LogEntry::getMessage).toList();
            assertThat(consoleProblems).as("the browser console's warnings and errors").isEmpty();
            List<String> requested = requestedUrls(browser);
            assertThat(requested).as("requests the browser made").isNotEmpty()
                    .contains(origin + "/live/data", origin + "/live/uPlot.iife.min.js")
                    .allMatch(url -> url.startsWith(origin + "/"), "on the admin port's origin");
        } finally {
            browser.quit();
        }
    }

    private static List<WebElement> sections(ChromeDriver browser) {
        return browser.findElements(By.cssSelector("section.chart"));
    }

    /** The number shown beside the chart for {@code metric} (0 for "–"); fails when the page says it is not registered. */
    private static double value(ChromeDriver browser, String metric) {
        String text = browser.findElement(By.cssSelector("li[data-metric='" + metric + "'] .value")).getText();
        assertThat(text).as(metric).isNotEqualTo("not registered");
        return "–".equals(text) ? 0 : Double.parseDouble(text.replace(",", ""));
    }

    /** How many pixels of the chart's canvas are painted (axes, grid and lines). */
    private static long paintedPixels(ChromeDriver browser, WebElement section) {
        Object painted = ((JavascriptExecutor) browser).executeScript(
                "var c = arguments[0].querySelector('canvas'); if (!c || c.width === 0) { return 0; }"
                        + "var d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data, n = 0;"
                        + "for (var i = 3; i < d.length; i += 4) { if (d[i] > 0) { n++; } } return n;", section);
        return ((Number) painted).longValue();
    }

    /** Every URL the browser asked a network for (Chrome's performance log, {@code Network.requestWillBeSent}). */
    private static List<String> requestedUrls(ChromeDriver browser) throws Exception {
        List<String> urls = new ArrayList<>();
        for (LogEntry entry : browser.manage().logs().get(LogType.PERFORMANCE)) {
            JsonNode message = JSON.readTree(entry.getMessage()).get("message");
            if ("Network.requestWillBeSent".equals(message.get("method").asText())) {
                String url = message.get("params").get("request").get("url").asText();
                // Only these go over a network: chrome:// (the browser's own pages) and data: URLs never leave it.
                if (NETWORK_SCHEMES.matcher(url).lookingAt()) {
                    urls.add(url);
                }
            }
        }
        return urls;
    }
}
