package com.example.threading.work;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.AdminMetrics;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The bounded pattern's places are exact burst after burst with the shipped sizes (50 threads + 50 queued) and
 * the full Jetty pool: a warm ThreadPoolExecutor whose own queue is the bound refuses some of such a burst while
 * threads are idle, because every submit then goes through the queue faster than idle workers empty it.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class BoundedBurstTest {

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"));

    static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void everyBurstGetsExactlyThreadsPlusQueuePlaces() {
        String url = LoopbackHttp.url(APP.getLocalPort(), "/work/bounded?ms=1500");
        int places = APP.getConfiguration().getWork().getBoundedPool().getThreads()
                + APP.getConfiguration().getWork().getBoundedPool().getQueueCapacity();
        assertThat(places).isEqualTo(100);

        for (int burst = 1; burst <= 3; burst++) {
            awaitAllPlacesFree();
            List<LoopbackHttp.Answer> answers = HTTP.getAll(url, places);
            assertThat(answers).as("burst %d of %d on %d places", burst, places, places)
                    .extracting(LoopbackHttp.Answer::status).containsOnly(200);
        }
        awaitAllPlacesFree();
        List<LoopbackHttp.Answer> overfull = HTTP.getAll(url, places + 50);
        assertThat(overfull.stream().filter(a -> a.status() == 200)).hasSize(places);
        assertThat(overfull.stream().filter(a -> a.status() == 503)).hasSize(50);
    }

    /** A place is given back just after its answer is sent: wait (at most 5 s) until the pool is idle again. */
    private static void awaitAllPlacesFree() {
        AdminMetrics admin = new AdminMetrics(HTTP, APP.getAdminPort());
        Await.until(() -> admin.gauge("work.bounded.places-taken") == 0, Duration.ofSeconds(5), "bounded pool idle");
    }
}
