package com.example.threading.threads;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Timer;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code /threads.json} on the running service: on JDK 21+ the virtual threads of {@code /work/virtual} requests in
 * flight are in it, under the executor that owns them, and a park that pins a virtual thread is counted; on JDK 17
 * a 501 says what it needs and no such metric exists; the admin menu links the dump and the application port has no
 * such path.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ThreadsEndpointsTest {

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml", ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("events.tickPeriod", "0s"));

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void close() {
        HTTP.close();
    }

    @Test
    void theDumpListsTheVirtualThreadsInFlightUnderTheirExecutor() throws Exception {
        if (Runtime.version().feature() < 21) {
            LoopbackHttp.Answer answer = admin(ThreadsBundle.PATH);
            assertThat(answer.status()).isEqualTo(501);
            assertThat(answer.json().path("message").asText()).contains("needs JDK 21 or newer").contains("/threads");
            return;
        }
        List<CompletableFuture<LoopbackHttp.Answer>> inFlight = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            inFlight.add(HTTP.getAsync(LoopbackHttp.url(APP.getLocalPort(), "/work/virtual?ms=3000")));
        }
        List<String> names = List.of();
        JsonNode owner = null;
        for (int attempt = 0; attempt < 50 && names.size() < 3; attempt++) {
            LoopbackHttp.Answer answer = admin(ThreadsBundle.PATH);
            assertThat(answer.status()).as(answer.body()).isEqualTo(200);
            assertThat(answer.header("Content-Type")).startsWith("application/json");
            for (JsonNode container : answer.json().path("threadDump").path("threadContainers")) {
                List<String> work = new ArrayList<>();
                container.path("threads").forEach(thread -> {
                    if (thread.path("name").asText().startsWith("work-virtual-")) {
                        work.add(thread.path("name").asText());
                    }
                });
                if (!work.isEmpty()) {
                    names = work;
                    owner = container;
                }
            }
            if (names.size() < 3) {
                TimeUnit.MILLISECONDS.sleep(50);
            }
        }

        assertThat(names).as("the three requests' virtual threads").hasSize(3);
        assertThat(owner.path("container").asText()).startsWith("java.util.concurrent.ThreadPerTaskExecutor@");
        if (Runtime.version().feature() >= 25) {
            owner.path("threads").forEach(thread -> assertThat(thread.path("virtual").asBoolean()).as(thread.toString()).isTrue());
        }
        for (CompletableFuture<LoopbackHttp.Answer> request : inFlight) {
            assertThat(request.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
        }
    }

    @Test
    void aPinnedParkIsCountedWhileTheServiceRuns() throws Exception {
        if (Runtime.version().feature() < 21) {
            assertThat(APP.getEnvironment().metrics().getNames()).noneMatch(name -> name.startsWith("threads.virtual."));
            return;
        }
        Timer pinned = APP.getEnvironment().metrics().timer("threads.virtual.pinned");
        long before = pinned.getCount();

        // JDK 24+ no longer pins in monitors; a class initializer still pins the virtual thread that runs it.
        Thread pinner = Thread.class.getMethod("startVirtualThread", Runnable.class)
                .invoke(null, (Runnable) SlowToInitialize::touch) instanceof Thread thread ? thread : null;
        assertThat(pinner).isNotNull();
        pinner.join(30_000);
        for (int attempt = 0; attempt < 300 && pinned.getCount() == before; attempt++) {
            TimeUnit.MILLISECONDS.sleep(100); // JFR hands events over about once a second
        }

        assertThat(pinned.getCount()).as("pinned parks counted").isGreaterThan(before);
        assertThat(pinned.getSnapshot().getMax()).as("its duration, in nanoseconds").isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
        assertThat(HTTP.get(LoopbackHttp.url(APP.getAdminPort(), "/prometheus")).body())
                .contains("jvm_virtual_threads_pinned_seconds_count", "jvm_virtual_threads_submit_failed_total 0.0");
    }

    /** Parks 60 ms in its static initializer: a virtual thread that runs it parks pinned (JDK 21 to 25 alike). */
    static final class SlowToInitialize {
        static {
            try {
                TimeUnit.MILLISECONDS.sleep(60);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        static void touch() {
            // loading the class is the point
        }
    }

    @Test
    void theAdminMenuLinksItAndTheApplicationPortHasNone() {
        LoopbackHttp.Answer menu = admin("/");

        assertThat(menu.body()).contains("<a href=\"/threads.json\">").contains("<a href=\"/live\">")
                .contains("href=\"/threads\"");
        assertThat(HTTP.get(LoopbackHttp.url(APP.getLocalPort(), ThreadsBundle.PATH)).status()).isEqualTo(404);
    }

    private static LoopbackHttp.Answer admin(String path) {
        return HTTP.get(LoopbackHttp.url(APP.getAdminPort(), path));
    }
}
