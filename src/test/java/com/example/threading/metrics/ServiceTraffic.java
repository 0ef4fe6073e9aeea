package com.example.threading.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.LoopbackHttp;
import java.util.List;

/**
 * A little of every pattern's traffic, so that each pattern's metric families have series: a few requests of each
 * {@code /work} pattern and {@code /fanout} via, long-polls answered by a published event and by a timeout.
 *
 * <p>Thread-safety: stateless.
 */
final class ServiceTraffic {

    private ServiceTraffic() {
    }

    /** Sends the traffic to {@code service} and checks each answer's status. */
    static void everyPattern(LoopbackHttp http, LiveInstance service) {
        for (String pattern : List.of("blocking", "thread-per-request", "cached", "bounded")) {
            assertThat(http.getAll(service.url("/work/" + pattern + "?ms=5"), 4)).extracting(LoopbackHttp.Answer::status)
                    .as(pattern).containsOnly(200);
        }
        for (String via : List.of("managed", "rxjava", "callback", "common")) {
            assertThat(http.get(service.url("/fanout?n=3&ms=5&via=" + via)).status()).as(via).isEqualTo(200);
        }
        var polls = List.of(http.getAsync(service.url("/events?timeout=5")), http.getAsync(service.url("/events?timeout=5")));
        assertThat(http.get(service.url("/events?timeout=1&topic=quiet")).status()).isEqualTo(204);
        assertThat(http.postJson(service.url("/events"), "{\"hello\":1}").status()).isEqualTo(200);
        polls.forEach(poll -> assertThat(poll.join().status()).isEqualTo(200));
    }
}
