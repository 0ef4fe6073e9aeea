package com.example.threading.live;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.jvm.GarbageCollectorMetricSet;
import com.codahale.metrics.jvm.ThreadStatesGaugeSet;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The live page's endpoints on a running service, without a browser: {@code /live/data} has one number per line of
 * {@code /live/layout}, and every metric the layout names is registered (so a renamed metric fails here, not silently
 * on the page); the page and its files are on the admin port only, with a same-origin Content-Security-Policy; the
 * admin menu links the page.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class LiveEndpointsTest {

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml", ConfigOverride.randomPorts(),
            ConfigOverride.config("events.tickPeriod", "0s"));

    /**
     * Lines registered only in some runs: the virtual-thread pool and virtual threads' JFR events from JDK 21 on, and
     * the server's virtual-thread bound only with {@code serverVirtualThreads.enabled}.
     */
    private static final Set<String> CONDITIONAL = Set.of("work.virtual.executor.running", "server.virtual-threads.running",
            "server.virtual-threads.waiting", "threads.virtual.pinned", "threads.virtual.submit-failed");

    private static LoopbackHttp http;

    @BeforeAll
    static void jvmMetricsAsApplicationRunRegistersThem() {
        // Application.run registers the jvm.* metrics (Bootstrap.registerMetrics); the test support does not.
        JvmMetrics.register(APP.getEnvironment().metrics());
        http = new LoopbackHttp();
    }

    @AfterAll
    static void close() {
        http.close();
    }

    @Test
    void everyMetricTheLayoutNamesIsRegisteredAndRead() {
        List<String> metrics = new ArrayList<>();
        admin("/live/layout").json().get("charts").forEach(chart -> chart.get("series").forEach(line -> metrics.add(line.get("metric").asText())));
        JsonNode values = admin("/live/data").json().get("values");

        assertThat(values).hasSize(metrics.size());
        List<String> unread = new ArrayList<>();
        for (int i = 0; i < metrics.size(); i++) {
            if (values.get(i).isNull() && !CONDITIONAL.contains(metrics.get(i))) {
                unread.add(metrics.get(i));
            }
        }
        assertThat(unread).as("metrics the live page names that the running service does not have").isEmpty();
        assertThat(metrics).contains("jetty.connector.application.strategy.epc", "events.parked", "admission.active");
    }

    @Test
    void theDataIsAnswerOfNowNotCached() {
        LoopbackHttp.Answer answer = admin("/live/data");

        assertThat(answer.header("Content-Type")).startsWith("application/json");
        assertThat(answer.header("Cache-Control")).isEqualTo("no-store");
        assertThat(answer.json().get("time").asLong()).isCloseTo(System.currentTimeMillis(), org.assertj.core.data.Offset.offset(60_000L));
    }

    @Test
    void thePageAndItsFilesComeFromTheAdminPortWithASameOriginPolicy() {
        LoopbackHttp.Answer page = admin("/live");

        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Content-Type")).startsWith("text/html");
        assertThat(page.header("Content-Security-Policy")).isEqualTo(LivePageServlet.CONTENT_SECURITY_POLICY)
                .contains("default-src 'none'").contains("connect-src 'self'");
        assertThat(page.body()).doesNotContain("http://", "https://");
        for (String file : List.of("/live/live.js", "/live/live.css", "/live/uPlot.iife.min.js", "/live/uPlot.min.css",
                "/live/docs/live.md", "/live/docs/work.md")) {
            assertThat(admin(file).status()).as(file).isEqualTo(200);
        }
        assertThat(admin("/live/docs/work.md").body()).startsWith("# ");
        assertThat(admin("/live/docs/../../../../config.yml").status()).isIn(400, 404);
        assertThat(admin("/live/nothing-here").status()).isEqualTo(404);
    }

    @Test
    void theApplicationPortHasNoLivePage() {
        for (String path : List.of("/live", "/live/data", "/live/layout", "/live/live.js")) {
            assertThat(http.get(LoopbackHttp.url(APP.getLocalPort(), path)).status()).as(path).isEqualTo(404);
        }
    }

    @Test
    void theAdminMenuLinksThePageAndKeepsItsOwnLinks() {
        LoopbackHttp.Answer menu = admin("/");

        assertThat(menu.status()).isEqualTo(200);
        assertThat(menu.body()).contains("<a href=\"/live\">").contains("href=\"/metrics?pretty=true\"").contains("</ul>");
        assertThat(admin("/metrics").body()).doesNotContain("/live\">");
    }

    private static LoopbackHttp.Answer admin(String path) {
        return http.get(LoopbackHttp.url(APP.getAdminPort(), path));
    }

    /** The JVM metric sets {@code Bootstrap.registerMetrics} registers, under the same names, for the ones the page reads. */
    static final class JvmMetrics {

        private JvmMetrics() {
        }

        static void register(com.codahale.metrics.MetricRegistry metrics) {
            if (!metrics.getNames().contains("jvm.threads.count")) {
                metrics.register("jvm.gc", new GarbageCollectorMetricSet());
                metrics.register("jvm.threads", new ThreadStatesGaugeSet());
            }
        }
    }
}
